/** A signal this soon after the first is the same one sent again by a library, not the user's second. */
const SIGNAL_ECHO_MS = 1_000;

let stopHeard = false;

/** Whether Ctrl-C or SIGTERM reached this process through `stopSignals` (a command's end is then its user's). */
export const stopAsked = (): boolean => stopHeard;

export interface StopSignals {
  /** Settles with the first signal's name. */
  asked: Promise<string>;
  dispose(): void;
}

/**
 * Ctrl-C and SIGTERM for a process that must end within a few seconds whatever holds it (a Redis client
 * waiting on a Redis that has gone, say). The first signal settles `asked` (the caller starts its
 * orderly stop) and arms a last resort that ends the process after `limitMs`, saying so; a second
 * signal ends it at once. Both timers are unref'd: they never keep alive a process that would end by
 * itself. `exit` is `process.exit` outside tests.
 */
export function stopSignals({
  say,
  what,
  limitMs,
  code,
  exit = (c) => process.exit(c),
}: {
  say: (line: string) => void;
  /** How the process is named in its last words ("The worker", "The web host"). */
  what: string;
  limitMs: number;
  /** The exit code of a stop cut short. */
  code: number;
  exit?: (code: number) => void;
}): StopSignals {
  let heard: ((signal: string) => void) | null = null;
  const asked = new Promise<string>((done) => (heard = done));
  let firstAt: number | null = null;
  const stop = (signal: string) => {
    if (firstAt !== null) {
      // when-exit (under conf's atomic writes) runs its hooks on a signal and sends the signal again, at
      // once: that echo is not a second Ctrl-C.
      if (Date.now() - firstAt < SIGNAL_ECHO_MS) return;
      say(`${signal} again: stopping now.`);
      return exit(code);
    }
    firstAt = Date.now();
    stopHeard = true;
    heard?.(signal);
    setTimeout(() => {
      say(`${what} did not stop within ${limitMs / 1000} s; ending it.`);
      exit(code);
    }, limitMs).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    asked,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
