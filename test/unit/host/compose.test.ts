import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { composeHost } from '../../../electron/services/host/compose';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { NoticeBoard } from '../../../electron/services/system/notice-board';
import { until } from '../../wait';

function compose(
  startSandbox = vi.fn(async () => ({
    baseUrl: 'http://127.0.0.1:1',
    apiKey: 'sandbox-key-123456',
    close: vi.fn(async () => undefined),
  })),
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-compose-'));
  const host = composeHost({
    host: 'web',
    appVersion: '9.9.9',
    dataDir,
    createVault: () => new MemoryVault(),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox,
    knownSecrets: ['env-secret-abcdef'],
  });
  return { host, dataDir, startSandbox };
}

describe('composeHost', () => {
  it('keeps every secret it learns out of the log file', async () => {
    const { host, dataDir } = compose();
    await host.base.vault.set('connection:x', JSON.stringify({ kind: 'api-key', apiKey: 'vault-secret-987654' }));
    await host.base.sandbox();
    host.base.log.warn('tried env-secret-abcdef, vault-secret-987654 and sandbox-key-123456', { apiKey: 'plain' });
    const log = readFileSync(join(dataDir, 'logs', 'studio.log'), 'utf8');
    expect(log).toContain('tried [redacted], [redacted] and [redacted]');
    for (const secret of ['env-secret-abcdef', 'vault-secret-987654', 'sandbox-key-123456', 'plain'])
      expect(log).not.toContain(secret);
  });

  it('starts the sandbox once, on first use, and stops it on dispose', async () => {
    const { host, startSandbox } = compose();
    expect(startSandbox).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([host.base.sandbox(), host.base.sandbox()]);
    expect(a).toEqual({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sandbox-key-123456' });
    expect(b).toEqual(a);
    expect(startSandbox).toHaveBeenCalledTimes(1);
    const started = await startSandbox.mock.results[0].value;
    await host.dispose();
    expect(started.close).toHaveBeenCalledTimes(1);
  });

  it("warms up by asking for the first screen's lists, which starts the sandbox before the page asks", async () => {
    const { host, startSandbox } = compose();
    host.warmUp();
    await until('the warm-up to start the sandbox', () => startSandbox.mock.calls.length === 1);
    // The page's own ask joins the same start (and, against a real sandbox, the same lists).
    await host.dispatch('catalogue.avatars', [{}]);
    expect(startSandbox).toHaveBeenCalledTimes(1);
    await host.dispose();
  });

  it('tries the sandbox again after a failed start', async () => {
    const start = vi
      .fn()
      .mockRejectedValueOnce(new Error('port busy'))
      .mockResolvedValue({ baseUrl: 'http://127.0.0.1:2', apiKey: 'k-abcdefgh', close: async () => undefined });
    const { host } = compose(start);
    await expect(host.base.sandbox()).rejects.toThrow('port busy');
    await expect(host.base.sandbox()).resolves.toMatchObject({ baseUrl: 'http://127.0.0.1:2' });
  });

  it('delivers events to subscribers and keeps notices until someone listens', async () => {
    const { host } = compose();
    host.base.notices.raise({ level: 'warning', title: 'early' });
    const seen: string[] = [];
    const stop = host.subscribe((event) => seen.push(event));
    host.base.notices.raise({ level: 'info', title: 'live' });
    host.base.emit('settings.changed', {
      ffmpegPath: null,
      ffprobePath: null,
      notifications: true,
      favouriteVoices: [],
      spending: { skipQuestionUnder: null, dailyLimits: {} },
    });
    stop();
    host.base.emit('settings.changed', {
      ffmpegPath: null,
      ffprobePath: null,
      notifications: false,
      favouriteVoices: [],
      spending: { skipQuestionUnder: null, dailyLimits: {} },
    });
    expect(seen).toEqual(['notice', 'settings.changed']);
    expect(await host.dispatch('system.pendingNotices', [])).toEqual({
      ok: true,
      value: [{ level: 'warning', title: 'early' }],
    });
  });

  it('redacts secrets from bridge error messages', async () => {
    const { host } = compose();
    const outcome = await host.dispatch('system.openExternal', ['https://user:env-secret-abcdef@example.com/']);
    expect(JSON.stringify(outcome)).not.toContain('env-secret-abcdef');
    expect(outcome.ok).toBe(false);
  });
});

describe('NoticeBoard', () => {
  it('keeps only the latest twenty notices while nobody listens', () => {
    const board = new NoticeBoard(
      () => undefined,
      () => false,
    );
    for (let i = 0; i < 25; i += 1) board.raise({ level: 'info', title: `n${i}` });
    const taken = board.takePending();
    expect(taken).toHaveLength(20);
    expect(taken[0].title).toBe('n5');
    expect(board.takePending()).toEqual([]);
  });
});

describe('defaultDataDir', () => {
  it('follows STUDIO_DATA_DIR, else the folder Electron uses as userData', async () => {
    const { defaultDataDir } = await import('../../../electron/services/host/data-dir');
    expect(defaultDataDir({ STUDIO_DATA_DIR: '/data/studio' }, 'linux')).toBe('/data/studio');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/u/.config' }, 'linux')).toBe('/home/u/.config/Avatar Studio');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toMatch(/Avatar Studio$/);
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Avatar Studio$/);
  });
});
