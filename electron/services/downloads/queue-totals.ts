import type { DownloadEntry, DownloadTotals } from '../../common/bridge/downloads';

/**
 * The Library's one line for the whole queue: files still to come, their bytes so far and in all, and
 * why saving waits (each cause that holds: a full disk, a missing drive). A file held by such a cause is
 * waiting, not downloading: it is counted apart, so the line never reads as progress while nothing moves.
 * `run` (see QueueRun) counts the files of this run and those saved, and how far it is as a whole.
 * `inRecord`: files queued in the record and not held (QueueWindow's backlog): counted, not read, as
 * each is a file to come of a size not known yet; `pausedInRecord`, those paused there, are open too.
 * `entries` are those the manager holds: every download under way is among them.
 */
export function queueTotals(
  entries: Iterable<DownloadEntry>,
  reasons: readonly (string | null)[],
  run: QueueRun = new QueueRun(),
  inRecord = 0,
  pausedInRecord = 0,
): DownloadTotals {
  const held = reasons.filter((r) => r !== null);
  const pausedReason = held.length > 0 ? held.join(' ') : null;
  const isHeld = (entry: DownloadEntry): boolean =>
    entry.state === 'queued' && entry.reason !== null && held.some((r) => r.includes(entry.reason as string));
  let active = 0;
  let waiting = 0;
  let bytes = 0;
  let totalBytes = 0;
  let unknownSizes = 0;
  let paused = 0;
  const all = [...entries];
  const open: DownloadEntry[] = [];
  for (const entry of all) {
    if (entry.state === 'paused') paused += 1;
    if (entry.state !== 'queued' && entry.state !== 'downloading') continue;
    open.push(entry);
    if (isHeld(entry)) {
      waiting += 1;
      continue;
    }
    active += 1;
    bytes += entry.bytes;
    // A file of a size not known yet counts what it has so far, so the bytes never run past their end.
    totalBytes += entry.totalBytes ?? entry.bytes;
    if (entry.totalBytes === null) unknownSizes += 1;
  }
  const openCount = open.length + paused + inRecord + pausedInRecord;
  active += inRecord;
  unknownSizes += inRecord;
  return {
    active,
    bytes,
    totalBytes,
    unknownSizes,
    pausedReason,
    waiting,
    open: openCount,
    ...run.read(all, open, inRecord),
  };
}

/**
 * The files of one run of the queue: every download open (queued or under way) since the queue was last
 * idle. A file saved stays counted until the run ends, so "12 of 30 saved" and the share done only grow:
 * finished files dropping out of the sum made the bar jump back, and files of a size not known yet
 * counted as done made it read 100 % with most of them not started.
 *
 * The manager lets an ended download go once it is recorded (letGo): the run keeps only how it ended,
 * by its id, so a run's figures never need the entries of its ended files.
 */
export class QueueRun {
  /** The run's files the manager holds (open, or ended and not let go yet). */
  private readonly ids = new Set<string>();
  /** The run's files let go, by whether they ended saved; a file held again (resumed) leaves it. */
  private readonly ended = new Map<string, boolean>();
  private endedSaved = 0;

  /** An ended download leaves the manager: the run remembers how it ended (a cancelled one leaves the run). */
  letGo(entry: DownloadEntry): void {
    if (!this.ids.delete(entry.id) || entry.state === 'cancelled') return;
    this.ended.set(entry.id, entry.state === 'saved');
    if (entry.state === 'saved') this.endedSaved += 1;
  }

  /** The run's figures from the entries held and the open ones among them. */
  read(
    held: readonly DownloadEntry[],
    open: readonly DownloadEntry[],
    inRecord = 0,
  ): Pick<DownloadTotals, 'files' | 'saved' | 'fraction'> {
    if (open.length === 0 && inRecord === 0) {
      this.ids.clear();
      this.ended.clear();
      this.endedSaved = 0;
      return { files: 0, saved: 0, fraction: 0 };
    }
    for (const entry of open) {
      this.ids.add(entry.id);
      this.forget(entry.id);
    }
    const seen = new Set<string>();
    let saved = this.endedSaved;
    let done = this.ended.size;
    for (const entry of held) {
      if (!this.ids.has(entry.id)) continue;
      // A cancelled file leaves the run; a failed one is done with (its row says why).
      if (entry.state === 'cancelled') continue;
      seen.add(entry.id);
      if (entry.state === 'saved') saved += 1;
      if (entry.state === 'queued' || entry.state === 'downloading' || entry.state === 'paused') {
        if (entry.totalBytes) done += Math.min(1, entry.bytes / entry.totalBytes);
      } else done += 1;
    }
    for (const id of this.ids) if (!seen.has(id)) this.ids.delete(id);
    const files = this.ids.size + this.ended.size + inRecord;
    return { files, saved, fraction: files > 0 ? Math.min(1, done / files) : 0 };
  }

  private forget(id: string): void {
    const saved = this.ended.get(id);
    if (saved === undefined) return;
    this.ended.delete(id);
    if (saved) this.endedSaved -= 1;
  }
}

export type StateCounts = Partial<Record<DownloadEntry['state'], number>>;
