import { describe, expect, it } from 'vitest';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import type { ConnectionsState } from '../../../electron/common/bridge/connections';
import { fail, ok, scriptedFetch, voice } from '../client/fake-fetch';

function manager(script: Parameters<typeof scriptedFetch>[0] = []) {
  const fake = scriptedFetch(script);
  const vault = new MemoryVault();
  const changes: ConnectionsState[] = [];
  let n = 0;
  const m = new ConnectionManager({
    createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined }),
    vault,
    sandbox: async () => ({ baseUrl: 'http://sandbox.test', apiKey: 'sandbox-key-1' }),
    clientOptions: { fetch: fake.fetch, sleep: async () => undefined, maxAttempts: 1 },
    onChange: (state) => changes.push(state),
    newId: () => `c${++n}`,
  });
  return { m, vault, seen: fake.seen, changes };
}

describe('ConnectionManager', () => {
  it('starts on the sandbox and keeps it built in', async () => {
    const { m } = manager();
    const state = await m.state();
    expect(state.activeId).toBe('sandbox');
    expect(state.connections.map((c) => [c.name, c.builtIn, c.hasSecret])).toEqual([['Sandbox', true, true]]);
    await expect(m.remove('sandbox')).rejects.toThrow(/built in/);
    await expect(m.update('sandbox', { name: 'Other' })).rejects.toThrow(/cannot be renamed/);
    expect((await m.update('sandbox', { webhookUrl: 'https://hooks.test/a' })).webhookUrl).toBe('https://hooks.test/a');
    expect((await m.active()).webhookUrl).toBe('https://hooks.test/a');
  });

  it('adds, renames and removes service connections, with unique names and their secrets', async () => {
    const { m, vault, changes } = manager();
    const prod = await m.add({ name: 'Production', baseUrl: 'https://api.example.com' });
    expect(prod).toMatchObject({ id: 'c1', hasSecret: false, authKind: null, active: false });
    await expect(m.add({ name: 'production', baseUrl: 'https://x.test' })).rejects.toThrow(/already exists/);
    await expect(m.add({ name: 'Sandbox', baseUrl: 'https://x.test' })).rejects.toThrow(/already exists/);
    const withSecret = await m.setSecret('c1', { kind: 'client-credentials', clientId: 'id', clientSecret: 'secret-1234' });
    expect(withSecret).toMatchObject({ hasSecret: true, authKind: 'client-credentials' });
    expect(JSON.stringify(withSecret)).not.toContain('secret-1234');
    await m.setActive('c1');
    expect((await m.state()).activeId).toBe('c1');
    expect(m.findByName('PRODUCTION')).toBe('c1');
    await m.remove('c1');
    expect(await vault.has('connection:c1')).toBe(false);
    expect((await m.state()).activeId).toBe('sandbox');
    expect(changes.length).toBeGreaterThanOrEqual(4);
  });

  it('tests a connection with one cheap call and answers in words', async () => {
    const { m, seen } = manager([ok([voice, voice]), fail(1101, 'token invalid')]);
    await m.add({ name: 'P', baseUrl: 'https://api.example.com' });
    const missing = await m.test('c1');
    expect(missing.ok).toBe(false);
    expect(missing.message).toMatch(/has no credentials/);
    expect(seen).toHaveLength(0);
    await m.setSecret('c1', { kind: 'api-key', apiKey: 'key-123456' });
    const good = await m.test('c1');
    expect(good).toMatchObject({ ok: true });
    expect(good.message).toMatch(/listed 2 voices/);
    expect(seen[0].url).toBe('https://api.example.com/api/open/v3/voice/list');
    const bad = await m.test('c1');
    expect(bad).toMatchObject({ ok: false });
    expect(bad.message).toMatch(/token is invalid or expired/);
  });
});
