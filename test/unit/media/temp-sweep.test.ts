import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { createMediaDomain } from '../../../electron/services/media/media-domain';
import { createMediaToolkit } from '../../../electron/services/media/toolkit';

// Finding 7 of the security audit: temporary files were never cleaned up.
const dir = mkdtempSync(join(tmpdir(), 'temp-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (relative: string, ageHours: number) => {
  const path = join(dir, 'data', 'media', relative);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'x');
  const when = new Date(Date.now() - ageHours * 3600_000);
  utimesSync(path, when, when);
  return path;
};

describe('temporary files', () => {
  it('what an interrupted run left behind is removed when the media services start; fresh and finished files stay', async () => {
    const stale = [
      file('cache/abc.mp4.123.part', 3),
      file('proxies/p.mp4.part', 3),
      file('previews/r.mp4.part', 3),
      file('scratch/poster.jpg', 3),
    ];
    const kept = [
      file('cache/abc.mp4', 3),
      file('previews/r.mp4', 3),
      file('cache/now.mp4.9.part', 0),
      file('scratch/now.jpg', 0),
    ];
    const base = createMemoryHostBase({ dataDir: join(dir, 'data') });
    const toolkit = createMediaToolkit({
      dataDir: base.dataDir,
      resolve: { env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null },
    });
    const domain = createMediaDomain(base, { toolkit });
    await domain.dispose?.();
    for (const path of stale) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
  });
});
