// The outage filter (outage.ts) accepts only what losing the host causes, only while the window is open:
// a filter that let other errors through would hide the very failures the journeys are there to catch.
import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { causedByOutage, watchErrors } from './outage';

const HOST = 'http://127.0.0.1:41000';

/** Enough of a page for watchErrors: console messages and page errors, emitted by the test. */
function fakePage(): {
  page: Page;
  log(text: string, url?: string, type?: string): void;
  crash(message: string): void;
} {
  const events = new EventEmitter();
  return {
    page: events as unknown as Page,
    log: (text, url = '', type = 'error') =>
      events.emit('console', {
        type: () => type,
        text: () => text,
        location: () => ({ url, lineNumber: 0, columnNumber: 0 }),
      }),
    crash: (message) => events.emit('pageerror', new Error(message)),
  };
}

describe('causedByOutage', () => {
  it('accepts the network errors of a lost host, for that host only', () => {
    for (const code of [
      'ERR_CONNECTION_REFUSED',
      'ERR_CONNECTION_RESET',
      'ERR_INCOMPLETE_CHUNKED_ENCODING',
      'ERR_EMPTY_RESPONSE',
      'ERR_CONNECTION_CLOSED',
    ]) {
      expect(causedByOutage(`Failed to load resource: net::${code}`, `${HOST}/bridge/events`, HOST), code).toBe(true);
      expect(causedByOutage(`GET ${HOST}/bridge/call/jobs.list net::${code}`, '', HOST), code).toBe(true);
      // The same error from another address is not the outage's.
      expect(
        causedByOutage(`Failed to load resource: net::${code}`, 'http://127.0.0.1:41001/logo.png', HOST),
        code,
      ).toBe(false);
      expect(causedByOutage(`GET http://127.0.0.1:41001/logo.png net::${code}`, '', HOST), code).toBe(false);
    }
  });

  it('refuses other errors, and a network error that names no address of the host', () => {
    expect(causedByOutage('boom', `${HOST}/assets/index.js`, HOST)).toBe(false);
    expect(
      causedByOutage(
        'Failed to load resource: the server responded with a status of 500 (Internal Server Error)',
        `${HOST}/bridge/call/jobs.list`,
        HOST,
      ),
    ).toBe(false);
    expect(causedByOutage('Failed to load resource: net::ERR_NAME_NOT_RESOLVED', `${HOST}/x`, HOST)).toBe(false);
    expect(causedByOutage('Failed to load resource: net::ERR_CONNECTION_REFUSED', '', HOST)).toBe(false);
    expect(causedByOutage('Something net::ERR_CONNECTION_RESET happened', '', HOST)).toBe(false);
  });
});

describe('watchErrors', () => {
  it('fails on an unrelated error inside the window, and on any error outside it', () => {
    const errors = watchErrors();
    const { page, log, crash } = fakePage();
    errors.watch(page);
    log('a warning is no error', '', 'warning');
    log('Failed to load resource: net::ERR_CONNECTION_REFUSED', `${HOST}/bridge/call/app.ping`);
    const outage = errors.outage(`${HOST}/?token=abc`);
    log('Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING', `${HOST}/bridge/events`);
    log('Failed to load resource: net::ERR_CONNECTION_REFUSED', `${HOST}/bridge/call/app.ping`);
    log('boom', `${HOST}/assets/index.js`);
    crash('Failed to fetch');
    log('Failed to load resource: net::ERR_CONNECTION_REFUSED', 'http://127.0.0.1:41001/logo.png');
    outage.end();
    log('Failed to load resource: net::ERR_CONNECTION_RESET', `${HOST}/bridge/events`);
    expect(errors.unexpected()).toEqual([
      `Failed to load resource: net::ERR_CONNECTION_REFUSED (at ${HOST}/bridge/call/app.ping)`,
      `boom (at ${HOST}/assets/index.js)`,
      'uncaught: Failed to fetch',
      'Failed to load resource: net::ERR_CONNECTION_REFUSED (at http://127.0.0.1:41001/logo.png)',
      `Failed to load resource: net::ERR_CONNECTION_RESET (at ${HOST}/bridge/events)`,
    ]);
    expect(errors.seen.filter((e) => e.accepted)).toHaveLength(2);
  });
});
