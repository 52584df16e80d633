import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArchiveSettings } from '../../../electron/common/bridge/downloads';
import { composeHost } from '../../../electron/services/host/compose';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';

const made: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The archive's folders of a studio composed on a fresh data folder, as every host composes it. */
async function archiveFolders(dataDir: string): Promise<Pick<ArchiveSettings, 'videoFolder' | 'audioFolder'>> {
  const host = composeHost({
    host: 'cli',
    appVersion: '9.9.9',
    dataDir,
    createVault: () => new MemoryVault(),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox: () => Promise.reject(new Error('no sandbox in this test')),
    log: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    start: 'read-only',
  });
  try {
    const answer = await host.dispatch('downloads.archiveSettings', []);
    if (!answer.ok) throw new Error(`archiveSettings failed: ${JSON.stringify(answer.error)}`);
    const { videoFolder, audioFolder } = answer.value as ArchiveSettings;
    return { videoFolder, audioFolder };
  } finally {
    await host.dispose();
  }
}

describe("the archive's folders", () => {
  it('follow a data folder named by STUDIO_DATA_DIR as they follow one named by --data-dir', async () => {
    // The tests' shared archive home would answer for both; this is about the studio's own default.
    vi.stubEnv('STUDIO_ARCHIVE_HOME', undefined);
    const byFlag = mkdtempSync(join(tmpdir(), 'archive-by-flag-'));
    const byEnv = mkdtempSync(join(tmpdir(), 'archive-by-env-'));
    made.push(byFlag, byEnv);

    expect(await archiveFolders(byFlag)).toEqual({
      videoFolder: join(byFlag, 'Videos', 'Avatar Studio'),
      audioFolder: join(byFlag, 'Music', 'Avatar Studio'),
    });
    // Named by the environment, as `STUDIO_DATA_DIR=… studio …` or `npm run web` runs it. Before, the
    // archive took such a folder for the per-user one and saved into ~/Videos and ~/Music.
    vi.stubEnv('STUDIO_DATA_DIR', byEnv);
    expect(await archiveFolders(byEnv)).toEqual({
      videoFolder: join(byEnv, 'Videos', 'Avatar Studio'),
      audioFolder: join(byEnv, 'Music', 'Avatar Studio'),
    });
  });
});
