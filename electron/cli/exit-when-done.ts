import { stopAsked } from '../services/host/stop-signals';

/** How long a finished command may take to let go of what it still holds before it is ended outright. */
export const EXIT_GRACE_MS = 5_000;

/**
 * The same for a command its user stopped (Ctrl-C, SIGTERM) that has closed in order: what still holds it
 * is a connection to a Redis that has gone, still closing, and the stop was asked for, so it goes unsaid.
 */
export const STOPPED_GRACE_MS = 300;

/**
 * Ends a finished command with `code`: at once (by itself) when nothing holds the process, else after
 * `graceMs`, naming what was still open (or, stopped by its user, after STOPPED_GRACE_MS and silently).
 * A command that said it was done must not hang on a handle left behind (a connection retrying a Redis
 * that has gone, say); the timer is unref'd, so it never keeps alive a process that would end by itself.
 */
export function exitWhenDone(
  code: number,
  {
    say = (line: string) => console.error(line),
    exit = (c: number) => process.exit(c),
    stopped = stopAsked(),
    graceMs = stopped ? STOPPED_GRACE_MS : EXIT_GRACE_MS,
  }: { say?: (line: string) => void; exit?: (code: number) => void; stopped?: boolean; graceMs?: number } = {},
): void {
  process.exitCode = code;
  setTimeout(() => {
    if (stopped) return exit(code);
    // Counted by kind ("TCPSocketWrap ×2"); the terminal's own streams are no leak.
    const counts = new Map<string, number>();
    for (const kind of process.getActiveResourcesInfo())
      if (kind !== 'TTYWrap') counts.set(kind, (counts.get(kind) ?? 0) + 1);
    const open = [...counts].map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind)).join(', ');
    say(`The command was done but did not exit (still open: ${open || 'nothing named'}); ending it.`);
    exit(code);
  }, graceMs).unref();
}
