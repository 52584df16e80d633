// A row's thumbnail is drawn once (a poster or a frame is an ffmpeg run) and kept on disk under what it
// depends on: asked again, even by a restarted host, it is read back; a changed row or file is drawn
// again; the cache keeps within its limits, the least recently used going first.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Project } from '@common/composition/document';
import { CampaignStills } from '../../../electron/services/campaign/campaign-stills';
import { StillCache, stillKey } from '../../../electron/services/campaign/still-cache';
import { loadTemplate } from './template-fixture';

const dir = mkdtempSync(join(tmpdir(), 'studio-still-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Stills whose drawing is counted: each poster and frame stands for one ffmpeg run. */
function countedStills(cacheDir: string | null) {
  const runs = { posters: 0, frames: 0 };
  const stills = new CampaignStills({
    runner: { run: () => Promise.reject(new Error('no ffmpeg here')) } as never,
    ffmpeg: async () => 'ffmpeg',
    poster: async (project, path) => {
      runs.posters += 1;
      await writeFile(path, Buffer.from(`jpeg of ${project.name}`));
    },
    frameOf: async (path) => {
      runs.frames += 1;
      return Buffer.from(`frame of ${path}`);
    },
    dir: join(dir, 'scratch'),
    ...(cacheDir ? { cache: new StillCache(cacheDir) } : {}),
  });
  return { stills, runs };
}

const project = (name: string): Project => ({ ...loadTemplate().project, name });

describe('campaign thumbnails cached on disk', () => {
  it("draws a row's first frame once: asked again, and by a restarted host, it makes no new drawing", async () => {
    const cacheDir = join(dir, 'first');
    const first = countedStills(cacheDir);
    const drawn = await first.stills.firstFrame(project('Ana'), 0);
    expect(first.runs.posters).toBe(1);
    expect(await first.stills.firstFrame(project('Ana'), 0)).toEqual(drawn);
    expect(first.runs.posters).toBe(1);

    const restarted = countedStills(cacheDir);
    expect((await restarted.stills.firstFrame(project('Ana'), 0)).dataUrl).toBe(drawn.dataUrl);
    expect(restarted.runs.posters).toBe(0);
    // Another row's values are another picture.
    await restarted.stills.firstFrame(project('Bo'), 1);
    expect(restarted.runs.posters).toBe(1);
    // The scratch poster is not left behind.
    expect(readdirSync(join(dir, 'scratch'))).toEqual([]);
  });

  it("draws a saved video's frame once per version of the file", async () => {
    const video = join(dir, 'row.mp4');
    writeFileSync(video, 'video');
    const { stills, runs } = countedStills(join(dir, 'saved'));
    await stills.savedFrame(video, 0);
    await stills.savedFrame(video, 0);
    expect(runs.frames).toBe(1);
    appendFileSync(video, ' regenerated');
    await stills.savedFrame(video, 0);
    expect(runs.frames).toBe(2);
  });

  it('without a cache draws every time (the protection is the cache)', async () => {
    const { stills, runs } = countedStills(null);
    await stills.firstFrame(project('Ana'), 0);
    await stills.firstFrame(project('Ana'), 0);
    expect(runs.posters).toBe(2);
  });

  it('keeps within its limits, removing the least recently used pictures', async () => {
    const cacheDir = join(dir, 'bounded');
    let now = 1_000;
    const cache = new StillCache(cacheDir, { maxBytes: 1_000, maxFiles: 2 }, () => now++);
    await cache.put(stillKey('a'), Buffer.from('aaa'));
    await cache.put(stillKey('b'), Buffer.from('bbb'));
    expect(await cache.get(stillKey('a'))).not.toBeNull();
    await cache.put(stillKey('c'), Buffer.from('ccc'));
    expect([await cache.has(stillKey('a')), await cache.has(stillKey('b')), await cache.has(stillKey('c'))]).toEqual([
      true,
      false,
      true,
    ]);
    expect(readdirSync(cacheDir)).toHaveLength(2);
    await cache.put(stillKey('big'), Buffer.alloc(1_000));
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(existsSync(join(cacheDir, `${stillKey('big')}.still`))).toBe(true);
  });
});
