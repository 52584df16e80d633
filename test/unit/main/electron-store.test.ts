import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({
  default: { app: { getPath: () => tmpdir(), getVersion: () => '0.1.0' }, ipcMain: { on: () => undefined }, shell: {} },
  app: { getPath: () => tmpdir(), getVersion: () => '0.1.0' },
  ipcMain: { on: () => undefined },
}));

import type { Notice } from '@common/bridge';
import { createElectronStoreFactory } from '../../../electron/main/platform/electron-store-factory';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { appSettingsSpec } from '../../../electron/services/system/settings-store';

describe('electron-store record files (desktop app)', () => {
  it('writes the same versioned record as the Node hosts and sets a corrupt file aside', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-estore-'));
    const notices: Notice[] = [];
    const deps = { log: new MemoryLogger(), notify: (n: Notice) => notices.push(n) };
    const settings = createElectronStoreFactory(dir, deps)(appSettingsSpec);
    settings.update((s) => ({ ...s, ffmpegPath: '/opt/ffmpeg' }));
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      version: 1,
      data: {
        ffmpegPath: '/opt/ffmpeg',
        ffprobePath: null,
        notifications: true,
        favouriteVoices: [],
        spending: { skipQuestionUnder: null, dailyLimits: {} },
      },
    });

    writeFileSync(join(dir, 'settings.json'), 'garbage');
    expect(createElectronStoreFactory(dir, deps)(appSettingsSpec).get()).toEqual(appSettingsSpec.defaults);
    expect(readdirSync(dir).filter((f) => f.startsWith('settings.corrupt-'))).toHaveLength(1);
    expect(notices).toHaveLength(1);
  });
});
