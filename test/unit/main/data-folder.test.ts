import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ dialog: { showErrorBox: vi.fn() } }));
vi.mock('electron', () => electron);

import { claimDataFolder } from '../../../electron/main/data-folder';
import { LOCK_FILE } from '../../../electron/services/host/data-folder-lock';

describe('the desktop app and its data folder', () => {
  it('takes the folder, and gives it back on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-desktop-'));
    const lock = claimDataFolder(dir);
    expect(lock).not.toBeNull();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      kind: 'desktop app',
    });
    lock?.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('says which process holds the folder and does not start on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-desktop-'));
    // A web host that is running (process 1 is always alive) holds the folder.
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: 1, host: hostname(), kind: 'web host', startedAt: Date.UTC(2026, 10, 22) }),
    );
    expect(claimDataFolder(dir)).toBeNull();
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith(
      'Avatar Studio is already using this data folder',
      expect.stringContaining('in use by the web host (process 1'),
    );
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).kind).toBe('web host');
  });
});
