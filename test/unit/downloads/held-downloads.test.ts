// The download entries the manager holds answer a job's entries, the copy kept under a name, and the
// copies saved at a path from indexes, as a look through every entry would: a studio following a run
// holds a copy of each row, and each row's save asked these of every entry held.
import { describe, expect, it } from 'vitest';
import type { DownloadEntry } from '../../../electron/common/bridge/downloads';
import { HeldDownloads } from '../../../electron/services/downloads/held-downloads';
import { copyAmong } from '../../../electron/services/downloads/recorded-downloads';
import { downloadView } from '../../component/library/download-view';

const STATES = ['queued', 'downloading', 'saved', 'cancelled', 'changed', 'failed'] as const;

/** An entry as the manager holds it (a view carries the same fields, and two of its own). */
function entry(id: string, jobId: string, savedPath: string | null, createdAt: number, state: DownloadEntry['state']) {
  return downloadView(jobId, { id, relativeName: `${jobId}.mp4`, savedPath, state }, createdAt) as DownloadEntry;
}

/** A small deterministic generator, so a failure can be played again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ids = (entries: readonly DownloadEntry[]) => entries.map((e) => e.id);

describe('the download entries held', () => {
  it('answer by job, by kept name and by saved path as a look at every entry would, through changes in place', () => {
    const held = new HeldDownloads();
    const next = random(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
    const jobs = ['j1', 'j2', 'j3'];
    const paths = ['/out/a.mp4', '/out/b.mp4', null];
    for (let step = 0; step < 3_000; step += 1) {
      const id = `d${Math.floor(next() * 40)}`;
      const action = next();
      if (action < 0.5) held.set(id, entry(id, pick(jobs), pick(paths), step, pick(STATES)));
      else if (action < 0.75) {
        // Changed in place, as the manager's update does, then set again to be indexed anew.
        const known = held.get(id);
        if (known) held.set(id, Object.assign(known, { savedPath: pick(paths), state: pick(STATES) }));
      } else if (action < 0.97) held.delete(id);
      else held.clear();
      const all = [...held.values()];
      const newestFirst = (a: DownloadEntry, b: DownloadEntry) => b.createdAt - a.createdAt;
      for (const job of jobs) {
        expect(ids(held.ofJob(job))).toEqual(ids(all.filter((e) => e.jobId === job).sort(newestFirst)));
        const kept = all
          .filter((e) => e.jobId === job && e.state !== 'cancelled' && e.state !== 'changed')
          .filter((e) => e.folder === '/out' && e.relativeName === `${job}.mp4`)
          .sort(newestFirst)[0];
        expect(copyAmong(held.ofJob(job), '/out', `${job}.mp4`)?.id).toBe(kept?.id);
      }
      for (const path of paths.slice(0, 2))
        expect(ids(held.savedAt(path as string)).sort()).toEqual(ids(all.filter((e) => e.savedPath === path)).sort());
    }
    expect(held.size).toBeGreaterThan(0);
  });
});
