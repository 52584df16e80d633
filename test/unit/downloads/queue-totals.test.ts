// The Library's download line reads the queue's totals: it counts the files of the run and what they
// have, honestly. The editor's run said "201 KB of 201 KB and 294 of a size not known yet … 100%" with
// most files not started, and "42 KB of 42 KB … 100%" with 3 files stuck on a full disk.
import { describe, expect, it } from 'vitest';
import type { DownloadEntry } from '../../../electron/common/bridge/downloads';
import { QueueRun, queueTotals } from '../../../electron/services/downloads/queue-totals';

function entry(id: number, patch: Partial<DownloadEntry>): DownloadEntry {
  return {
    id: `d${id}`,
    jobId: `j${id}`,
    url: `http://127.0.0.1/${id}.mp4`,
    folder: '/out',
    relativeName: `${id}.mp4`,
    requestedName: `${id}.mp4`,
    state: 'queued',
    reason: null,
    bytes: 0,
    totalBytes: null,
    etag: null,
    lastModified: null,
    attempts: 0,
    savedPath: null,
    sha256: null,
    mtimeMs: null,
    verifiedAt: null,
    refetchedAt: null,
    origin: 'library',
    batchId: null,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}

const KB = 1000;

describe('the download line of a run of 300 files', () => {
  it('is a small share done while most files have not started, and never goes back as files finish', () => {
    const run = new QueueRun();
    const entries = Array.from({ length: 300 }, (_, i) => entry(i, {}));
    // Three under way, their sizes known; 297 next in line, of sizes not known yet.
    for (const e of entries.slice(0, 3))
      Object.assign(e, { state: 'downloading', bytes: 67 * KB, totalBytes: 67 * KB });
    const first = queueTotals(entries, [null, null], run);
    expect(first).toMatchObject({ active: 300, waiting: 0, files: 300, saved: 0, unknownSizes: 297 });
    // 3 whole files of 300 is 1 %, not the 100 % that 201 KB of 201 KB made it read.
    expect(first.fraction).toBeCloseTo(3 / 300, 5);

    // The three are saved and leave the open files: the run still counts them.
    for (const e of entries.slice(0, 3)) Object.assign(e, { state: 'saved' });
    Object.assign(entries[3], { state: 'downloading', bytes: 10 * KB, totalBytes: 40 * KB });
    const later = queueTotals(entries, [null, null], run);
    expect(later).toMatchObject({ active: 297, files: 300, saved: 3 });
    expect(later.fraction).toBeGreaterThanOrEqual(first.fraction);
    expect(later.fraction).toBeCloseTo(3.25 / 300, 5);

    // A cancelled file leaves the run; when nothing is open the run is over and the next one starts afresh.
    for (const e of entries.slice(3)) Object.assign(e, { state: 'cancelled' });
    expect(queueTotals(entries, [null, null], run)).toMatchObject({ active: 0, files: 0, saved: 0, fraction: 0 });
    const next = [...entries, entry(400, {})];
    expect(queueTotals(next, [null, null], run)).toMatchObject({ active: 1, files: 1, saved: 0 });
  });

  it('counts files held by a full disk as waiting, not downloading, with only the bytes their .part kept', () => {
    const full = 'The disk holding /out is full. Downloads to it are paused and their partial files kept.';
    const entries = [
      entry(1, { state: 'saved', bytes: 42 * KB, totalBytes: 42 * KB }),
      entry(2, { reason: full, bytes: 20 * KB, totalBytes: 40 * KB }),
      entry(3, { reason: full }),
      entry(4, { reason: full }),
    ];
    const run = new QueueRun();
    const totals = queueTotals(entries, [full, null], run);
    expect(totals).toMatchObject({ active: 0, waiting: 3, bytes: 0, totalBytes: 0, pausedReason: full });
    // The saved file was not open when the run was first read, so it is not the run's.
    expect(totals).toMatchObject({ files: 3, saved: 0 });
    expect(totals.fraction).toBeCloseTo(0.5 / 3, 5);

    // Room again (the reason no longer holds): the same files are next in line, not waiting.
    expect(queueTotals(entries, [null, null], run)).toMatchObject({ active: 3, waiting: 0, files: 3 });
  });
});
