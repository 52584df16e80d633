import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { composeHost, type ComposedHost } from '../../../electron/services/host/compose';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import type { BridgeOutcome } from '../../../electron/common/bridge';
import { until } from '../../wait';

vi.mock('electron', () => ({ safeStorage: {} }));
const { SafeStorageVault } = await import('../../../electron/main/platform/safe-storage-vault');

const API_KEY = 'sk-known-secret-4f3e2d1c0b';
// 32 bytes: the sandbox refuses a client secret that cannot be an AES key for its webhooks.
const CLIENT_SECRET = 'cs-known-secret-9a8b7c6d5e4f3a2b';
const WRONG_KEY = 'sk-wrong-secret-1234567890';
const SECRETS = [API_KEY, CLIENT_SECRET, WRONG_KEY];

let emulator: RunningEmulator;
let host: ComposedHost;
let dataDir: string;
const payloads: string[] = [];

async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  const outcome = (await host.dispatch(channel, args)) as BridgeOutcome<T>;
  payloads.push(JSON.stringify(outcome));
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    apiKey: API_KEY,
    clientId: 'known-client-id-0001',
    clientSecret: CLIENT_SECRET,
    jobSeconds: 0.4,
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'studio-secrets-'));
  const fakeSafeStorage = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (s: string) => Buffer.from([...s].map((c) => String.fromCharCode(c.charCodeAt(0) ^ 7)).join('')),
    decryptString: (b: Buffer) => [...b.toString()].map((c) => String.fromCharCode(c.charCodeAt(0) ^ 7)).join(''),
  };
  host = composeHost({
    host: 'web',
    appVersion: 'test',
    dataDir,
    createVault: (createStore) =>
      new SafeStorageVault({ createStore, platform: 'linux', safeStorage: fakeSafeStorage }),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox: async () => ({ baseUrl: emulator.url, apiKey: API_KEY, close: async () => undefined }),
  });
  host.subscribe((event, payload) => payloads.push(JSON.stringify({ event, payload })));
}, 120_000);

afterAll(async () => {
  await host?.dispose();
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('credentials', () => {
  it('work for calls but never appear in bridge payloads, events, errors, logs, records or settings', async () => {
    const prod = await call<{ id: string }>('connections.add', {
      name: 'Production',
      baseUrl: emulator.url,
      webhookUrl: null,
    });
    const withKey = await call<{ hasSecret: boolean; authKind: string }>('connections.setSecret', prod.id, {
      kind: 'api-key',
      apiKey: API_KEY,
    });
    expect(withKey).toMatchObject({ hasSecret: true, authKind: 'api-key' });
    expect(await call('connections.test', prod.id)).toMatchObject({ ok: true });

    const token = await call<{ id: string }>('connections.add', { name: 'Token', baseUrl: emulator.url });
    await call('connections.setSecret', token.id, {
      kind: 'client-credentials',
      clientId: 'known-client-id-0001',
      clientSecret: CLIENT_SECRET,
    });
    expect(await call('connections.test', token.id)).toMatchObject({ ok: true });

    const wrong = await call<{ id: string }>('connections.add', { name: 'Wrong', baseUrl: emulator.url });
    await call('connections.setSecret', wrong.id, { kind: 'api-key', apiKey: WRONG_KEY });
    const failed = await call<{ ok: boolean; message: string }>('connections.test', wrong.id);
    expect(failed.ok).toBe(false);
    expect(failed.message).toMatch(/credentials|key/i);

    await call('connections.setActive', token.id);
    const voices = await call<unknown[]>('catalogue.voices', {});
    expect(voices.length).toBeGreaterThan(0);
    const submitted = await call<{ status: string; job: { id: string } }>('jobs.submit', {
      kind: 'tts',
      body: { input_text: 'A secret-free sentence.', voice_id: 'sandbox_ava', rate: '50%' },
      projectId: 'project-1',
      confirmation: { by: 'user', credits: null },
    });
    expect(submitted.status).toBe('submitted');
    await until(
      'the speech job to complete',
      async () => (await call<{ phase: string }>('jobs.get', submitted.job.id)).phase === 'completed',
    );
    // Without desktop notifications the host tells the page instead.
    expect(payloads.some((p) => p.includes('"event":"notice"') && p.includes('Speech ready'))).toBe(true);
    await call('connections.setActive', wrong.id);
    await expect(call('catalogue.voices', {})).rejects.toThrow(/credentials|1101|1102|key/i);
    await call('connections.clearSecret', wrong.id);
    await expect(call('connections.setSecret', wrong.id, { kind: 'api-key', apiKey: '' })).rejects.toThrow(/too short/);

    // The renderer-facing list says a secret exists and nothing more.
    const list = await call<{ connections: Record<string, unknown>[] }>('connections.list');
    for (const c of list.connections)
      expect(Object.keys(c).sort()).toEqual([
        'active',
        'authKind',
        'baseUrl',
        'builtIn',
        // The callback and listen addresses a user gave (never a secret: the receiver reads those in the host).
        'callbacks',
        'hasSecret',
        'id',
        'name',
        'placement',
        'webhookUrl',
      ]);

    await host.dispose();
    const written = filesUnder(dataDir).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    // The job is in the records database (its file or its write-ahead log), so the scan below covers it.
    expect(written.some((w) => /records\.db(-wal)?$/.test(w.f) && w.text.includes(submitted.job.id))).toBe(true);
    expect(written.some((w) => w.f.endsWith('credentials.json'))).toBe(true);
    const everything = [...payloads, ...written.map((w) => w.text)].join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of SECRETS)
      expect(everything.includes(secret), `secret ${secret.slice(0, 8)}… leaked`).toBe(false);
    expect(everything).not.toMatch(/Bearer [A-Za-z0-9]/);
  }, 120_000);
});
