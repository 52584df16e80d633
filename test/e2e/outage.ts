// A page's console errors and uncaught errors, for tests that kill or restart a web host while a page
// of it is open. The kill makes the page log network errors for as long as the host is down, and how
// many and which depends on timing alone (a request in flight is reset, the event stream's reconnect is
// refused, a reply is cut mid-body). Such a test marks the outage: inside that window the errors a lost
// host of its own causes are accepted, whatever their number; anything else, and any error at all
// outside the window, is unexpected and fails the test.
//
//   const errors = watchErrors();
//   errors.watch(page);
//   const outage = errors.outage(host.url);   // just before the kill
//   await stopHostProcess(host, 'SIGKILL');
//   await page.context().close();
//   outage.end();                              // the page is gone (or the new host answers)
//   expect(errors.unexpected()).toEqual([]);
import type { ConsoleMessage, Page } from 'playwright-core';

/**
 * What Chromium says when the host at the other end is gone: refused while it is down, reset or closed
 * when it dies under a request, an empty or cut-off reply when it dies mid-answer (the event stream is
 * one long reply, so it always ends cut off).
 */
const OUTAGE_ERRORS =
  /net::(ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_EMPTY_RESPONSE|ERR_CONNECTION_CLOSED)\b/;
/** Chromium's wording for a resource that failed at the network level, with nothing else in it. */
const FAILED_RESOURCE = /^Failed to load resource: net::ERR_[A-Z_]+$/;

export interface SeenError {
  text: string;
  /** The address the message is about (a failed resource's own URL), where Chromium names one. */
  url: string;
  /** Inside an outage window and of the kinds that outage causes. */
  accepted: boolean;
}

export interface Outage {
  /** Closes the window: from here on every error is unexpected again. */
  end(): void;
}

export interface PageErrors {
  /** Starts collecting from a page (several pages may share one collector). */
  watch(page: Page): void;
  /**
   * Opens an outage window for the host at `hostUrl` (its address; only its origin counts). Call it just
   * before the kill, and end it once every page of that host is closed or the new host answers.
   */
  outage(hostUrl: string): Outage;
  /** Everything seen so far, accepted or not. */
  readonly seen: readonly SeenError[];
  /** The errors that fail the test. */
  unexpected(): string[];
}

/** Whether `text` (at `url`) is one of the errors an outage of the host at `origin` causes. */
export function causedByOutage(text: string, url: string, origin: string): boolean {
  if (!OUTAGE_ERRORS.test(text)) return false;
  // The plain "Failed to load resource" names its resource only in the message's location; it must be
  // the host's own, so a third-party link that fails the same way in the window is still caught.
  if (FAILED_RESOURCE.test(text)) return sameOrigin(url, origin);
  // Other wordings name the address in the text ("GET http://… net::ERR_…"): every address named must be
  // the host's.
  const named = text.match(/\bhttps?:\/\/[^\s'"]+/g) ?? [];
  return named.length > 0 && named.every((address) => sameOrigin(address, origin));
}

function sameOrigin(address: string, origin: string): boolean {
  try {
    return new URL(address).origin === origin;
  } catch {
    return false;
  }
}

export function watchErrors(): PageErrors {
  const seen: SeenError[] = [];
  let outageOf: string | undefined;
  const record = (text: string, url: string, mayBeOutage: boolean) => {
    seen.push({ text, url, accepted: mayBeOutage && outageOf !== undefined && causedByOutage(text, url, outageOf) });
  };
  return {
    watch(page) {
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error') record(message.text(), message.location().url, true);
      });
      // An uncaught exception is the page's own failure, never the outage's, inside the window or not.
      page.on('pageerror', (error) => record(`uncaught: ${error.message}`, '', false));
    },
    outage(hostUrl) {
      if (outageOf !== undefined) throw new Error('an outage window is already open');
      outageOf = new URL(hostUrl).origin;
      return {
        end() {
          outageOf = undefined;
        },
      };
    },
    get seen() {
      return seen;
    },
    unexpected() {
      return seen
        .filter((error) => !error.accepted)
        .map((error) => (error.url ? `${error.text} (at ${error.url})` : error.text));
    },
  };
}
