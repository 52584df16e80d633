import type { DownloadEntry } from '../../common/bridge/downloads';
import type { DownloadManagerOptions } from './download-manager-options';
import type { DownloadProgress } from './download-progress';
import type { MissingDrives } from './drives';
import { describeFailure } from './fetch-to-file';
import { keptBytes, type FullDisks } from './full-disks';
import { FINISHED, targetOf } from './queue-names';
import type { QueueWindow } from './queue-window';
import type { RunningTransfers } from './running-transfers';
import type { SpeedLimit } from './speed-limit';
import { savedChange, transferOnce } from './transfer-once';
import { transferWithRetries } from './transfer-retries';

/** What one download's run uses of its manager (DownloadManager gives its own parts). */
export interface RunHost {
  entries: ReadonlyMap<string, DownloadEntry>;
  running: RunningTransfers;
  fullDisks: FullDisks;
  drives: MissingDrives;
  progress: DownloadProgress;
  window: QueueWindow;
  limit: SpeedLimit;
  options: DownloadManagerOptions;
  now(): number;
  disposed(): boolean;
  /** Changes the entry; `emit` shows and writes it (DownloadManager.update). */
  update(entry: DownloadEntry, change: Partial<DownloadEntry>, emit: boolean): void;
  /** Lets an ended entry go once written (DownloadManager.release). */
  release(entry: DownloadEntry): void;
  schedule(id: string): void;
}

/**
 * One download's run, in a place of the queue's slots: it waits for a missing drive or a full disk,
 * names an entry taken from the backlog, transfers with retries, and records how it ended. `received`
 * gives the place back once the last byte is in (DownloadSlots says why).
 */
export async function runDownload(host: RunHost, id: string, received: () => void): Promise<void> {
  const entry = host.entries.get(id);
  if (!entry || entry.state !== 'queued' || host.running.has(id) || host.disposed()) return;
  const { signal, end } = host.running.start(id);
  const waiting = (await host.fullDisks.waitFor(entry.folder)) ?? (await host.drives.check(entry.folder));
  if (waiting) {
    // Waits for resumeAll() (a full disk) or checkDrives() (a drive back); not scheduled until then.
    end();
    if (entry.reason !== waiting) host.update(entry, { reason: waiting }, true);
    return;
  }
  // Shown, not written: a download found "downloading" on disk comes back queued anyway.
  Object.assign(entry, { state: 'downloading', reason: null, updatedAt: host.now() });
  host.progress.changed(entry, true);
  const meter = host.progress.measure(id);
  try {
    if (entry.unnamed) {
      // Taken in by its id from the backlog (a row the page showed) and resumed: named before a byte.
      await host.window.name([entry], () => host.entries.values());
      await host.options.store.save([entry]);
    }
    const target = targetOf(entry.folder, entry.relativeName);
    await host.options.prepare?.(entry);
    const attempt = () =>
      transferOnce(
        { entry, target, signal, meter, received },
        { ...host.options, limit: host.limit, progress: host.progress },
        (change) => host.update(entry, change, false),
      );
    const outcome = await transferWithRetries(attempt, {
      signal,
      attemptsSoFar: entry.attempts,
      policy: host.options,
      onRetry: (attempts, reason) => host.update(entry, { attempts, reason }, true),
    });
    if (outcome.kind === 'done') {
      const identity = await host.drives.identityOf(entry.folder);
      host.update(entry, await savedChange(target, outcome.value.sha256, host.now(), identity), true);
      host.drives.saw(entry);
    } else if (outcome.kind === 'disk-full') {
      await pauseForFullDisk(host, entry);
    } else if (outcome.kind === 'failed') {
      host.update(entry, { state: 'failed', attempts: outcome.attempts, reason: outcome.reason }, true);
    }
  } catch (error) {
    host.update(entry, { state: 'failed', reason: describeFailure(error) }, true);
  } finally {
    end();
    host.progress.stopMeasuring(id);
    // Read afresh: pause, cancel and dispose change it while the download runs.
    const state = (): DownloadEntry['state'] => entry.state;
    if (host.disposed() && state() === 'downloading') entry.state = 'queued';
    await host.options.store.save([entry]);
    host.release(entry);
    if (FINISHED.has(state()) && state() !== 'cancelled') host.options.onEnd?.(host.progress.view(entry));
    // Back in line (a full disk, or resumed while this run was winding down): it runs again when
    // the queue does; a run of one already running or not queued does nothing.
    if (state() === 'queued' && !host.disposed()) host.schedule(id);
    host.window.refill();
  }
}

/** Only the downloads writing to that disk wait; the others (the archive on another disk) go on. */
async function pauseForFullDisk(host: RunHost, entry: DownloadEntry): Promise<void> {
  const reason = await host.fullDisks.markFull(entry.folder);
  host.options.log?.warn('downloads paused: disk full', { folder: entry.folder });
  // Back in line with what its `.part` kept (more came than the disk took); it resumes from there.
  host.update(entry, { state: 'queued', reason, bytes: await keptBytes(entry) }, true);
}
