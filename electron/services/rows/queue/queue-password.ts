/**
 * Where a studio keeps a queue's password, said the same way on the run's card, in `campaign status`, on
 * the command line and in docs/scale-out.md (test/unit/rows/queue-pause.test.ts holds them together).
 * `persistent` is the studio's vault's: the desktop app's is the system's keychain; the web host's and
 * the command line's hold what they were given in memory only.
 */
export function passwordKept(persistent: boolean): string {
  return persistent
    ? "the desktop app keeps a queue's password in its vault (the system's keychain) from the start of a run it was given with, and has none for this queue"
    : "the web host and the command line keep a queue's password only while they run, never on disk, so each start needs it again";
}

/** How a run paused for want of the password goes on: its start again, with the password. */
export const GIVE_PASSWORD =
  "Start the campaign again with the queue's password (the Campaigns page's queue fields, or studio campaign run with STUDIO_QUEUE_URL or --queue-password-file): it goes on where it stopped, taking in what the workers made meanwhile";

/** Redis asks for a password the studio does not hold (or refuses the one it has). */
export const refusedByRedis = (text: string): boolean =>
  /NOAUTH|WRONGPASS|invalid password|invalid username/i.test(text);

/** A run paused because its queue refuses this studio, in words. */
export function passwordPause(address: string, persistent: boolean): string {
  return `The queue at ${address} asks for a password this studio does not hold: ${passwordKept(persistent)}.`;
}
