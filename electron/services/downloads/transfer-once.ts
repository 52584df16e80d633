import { stat } from 'node:fs/promises';
import type { DownloadEntry } from '../../common/bridge/downloads';
import { fetchToFile } from './fetch-to-file';
import type { DownloadManagerOptions } from './download-manager-options';
import type { SpeedLimit } from './speed-limit';
import type { SpeedMeter } from './speed-meter';
import type { DownloadProgress } from './download-progress';

/** One download's transfer under way: its entry, where it goes, how it is stopped and measured. */
export interface TransferAttempt {
  entry: DownloadEntry;
  target: string;
  signal: AbortSignal;
  meter: SpeedMeter;
  /** The last byte is in (the place is given back: DownloadSlots). */
  received: () => void;
}

type TransferContext = Pick<DownloadManagerOptions, 'fetch' | 'verify' | 'store'> & {
  limit: SpeedLimit;
  progress: Pick<DownloadProgress, 'changed'>;
};

/** One attempt at the file: resumes its `.part` when the server's validators still match. */
export function transferOnce(
  { entry, target, signal, meter, received }: TransferAttempt,
  context: TransferContext,
  update: (change: Partial<DownloadEntry>) => void,
): Promise<{ sha256: string }> {
  return fetchToFile({
    url: entry.url,
    target,
    fetch: context.fetch,
    validators:
      entry.etag || entry.lastModified
        ? { etag: entry.etag, lastModified: entry.lastModified, totalBytes: entry.totalBytes }
        : null,
    signal,
    limit: context.limit,
    verify: context.verify,
    onReceived: received,
    onValidators: async (v) => {
      update({ etag: v.etag, lastModified: v.lastModified, totalBytes: v.totalBytes });
      // Before the first byte, so a killed process resumes; not flushed to the disk (a power cut
      // would not keep the unflushed `.part` bytes either), which keeps it off the transfer's path
      // on a busy disk.
      await context.store.save([entry], { durable: false });
    },
    onProgress: ({ bytes, totalBytes, received: total }) => {
      meter.sample(total);
      entry.bytes = bytes;
      entry.totalBytes = totalBytes;
      // A chunk written after a pause or cancel does not announce that state early.
      if (entry.state === 'downloading') context.progress.changed(entry, false);
    },
  });
}

/** What a download records once its file is in place: the file as it is on disk now, and its volume. */
export async function savedChange(
  target: string,
  sha256: string,
  at: number,
  volume: Partial<DownloadEntry>,
): Promise<Partial<DownloadEntry>> {
  const info = await stat(target);
  return {
    state: 'saved',
    savedPath: target,
    bytes: info.size,
    totalBytes: info.size,
    reason: null,
    sha256,
    mtimeMs: info.mtimeMs,
    verifiedAt: at,
    ...volume,
  };
}
