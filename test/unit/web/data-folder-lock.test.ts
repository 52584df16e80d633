import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolderBusyError, LOCK_FILE, lockDataFolder } from '../../../electron/services/host/data-folder-lock';
import { startWebHost } from '../../../electron/web/web-host';

// Finding 6 of the security audit: two web hosts on one data folder lost settings, a connection, a
// project from Recent and sandbox records.
const root = mkdtempSync(join(tmpdir(), 'studio-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lockOf = (dir: string, pid: number) =>
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), kind: 'web host', startedAt: 0 }));

describe('one process per data folder', () => {
  it('a second web host on the same folder says which process holds it and does not start', async () => {
    const app = join(root, 'app');
    mkdirSync(join(app, 'out', 'renderer'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"version":"0.0.0"}');
    writeFileSync(join(app, 'out', 'renderer', 'index.html'), '<!doctype html><title>studio</title>');
    const dataDir = join(root, 'data');
    const first = await startWebHost({ root: app, dataDir, port: 0, env: {}, skipBuild: true });
    try {
      await expect(startWebHost({ root: app, dataDir, port: 0, env: {}, skipBuild: true })).rejects.toThrow(
        `in use by the web host (process ${process.pid} on `,
      );
    } finally {
      await first.close();
    }
    const again = await startWebHost({ root: app, dataDir, port: 0, env: {}, skipBuild: true });
    await again.close();
  });

  it('a lock held by a live process refuses; one left by a process that died (crash, SIGKILL) is taken over', async () => {
    const dir = mkdtempSync(join(root, 'folder-'));
    // Alive until killed (a `sleep 30` would end on its own on a slow enough machine).
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1 << 30)'], { stdio: 'ignore' });
    try {
      lockOf(dir, holder.pid ?? 0);
      const busy = (() => {
        try {
          lockDataFolder(dir, 'web host');
          return null;
        } catch (error) {
          return error;
        }
      })();
      expect(busy).toBeInstanceOf(DataFolderBusyError);
      expect((busy as Error).message).toContain(`process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    lockOf(dir, Number(dead.stdout));
    const taken = lockDataFolder(dir, 'web host');
    expect(() => lockDataFolder(dir, 'web host')).toThrow(DataFolderBusyError);
    taken.release();
    lockDataFolder(dir, 'web host').release();
  });
});
