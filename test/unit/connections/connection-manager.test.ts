import { describe, expect, it } from 'vitest';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { NewConnection, type ConnectionsState } from '../../../electron/common/bridge/connections';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { secretId } from '../../../electron/services/connections/credentials';
import type { CredentialVault } from '../../../electron/services/host/types';
import { fail, json, ok, scriptedFetch, voice } from '../client/fake-fetch';

function manager(script: Parameters<typeof scriptedFetch>[0] = [], vault: CredentialVault = new MemoryVault()) {
  const fake = scriptedFetch(script);
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
    const withSecret = await m.setSecret('c1', {
      kind: 'client-credentials',
      clientId: 'id',
      clientSecret: 'secret-1234',
    });
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

  it('keeps the placement each connection was measured with, assumed until then, and forgets it when the address moves', async () => {
    const { m } = manager();
    expect((await m.get('sandbox')).placement).toEqual({
      anchor: 'centre',
      scale: 'frame',
      source: 'built-in',
      checkedAt: null,
    });
    await m.add({ name: 'Production', baseUrl: 'https://api.example.com' });
    expect((await m.get('c1')).placement).toEqual({
      anchor: 'centre',
      scale: 'frame',
      source: 'assumed',
      checkedAt: null,
    });
    await m.setPlacement('c1', { anchor: 'top-left', scale: 'element' }, 1234);
    expect((await m.get('c1')).placement).toEqual({
      anchor: 'top-left',
      scale: 'element',
      source: 'measured',
      checkedAt: 1234,
    });
    await m.update('c1', { name: 'Prod' });
    expect((await m.get('c1')).placement.source).toBe('measured');
    await m.update('c1', { baseUrl: 'https://other.example.com' });
    expect((await m.get('c1')).placement.source).toBe('assumed');
    await m.setPlacement('sandbox', { anchor: 'centre', scale: 'frame' }, 99);
    expect((await m.get('sandbox')).placement).toMatchObject({ source: 'measured', checkedAt: 99 });
  });

  it("reads the active connection's credit balance from quota/info, and null when it is not answered", async () => {
    const { m, seen } = manager([ok({ credit: 1234.5 }), json({ code: 1008, msg: 'No such endpoint' }, 404)]);
    expect(await m.balance()).toEqual({ connectionId: 'sandbox', credit: 1234.5 });
    expect(seen[0].url).toBe('http://sandbox.test/api/open/v3/faceswap/quota/info');
    expect(await m.balance()).toEqual({ connectionId: 'sandbox', credit: null });
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

  // Finding 2 of the security audit: credentials went wherever the page pointed them.
  it('drops a stored secret when the base URL moves to another origin, keeps it on the same origin', async () => {
    const { m, vault, seen } = manager([ok([voice])]);
    await m.add({ name: 'P', baseUrl: 'https://api.example.com' });
    await m.setSecret('c1', { kind: 'api-key', apiKey: 'key-123456' });
    expect((await m.update('c1', { baseUrl: 'https://api.example.com/v2' })).hasSecret).toBe(true);
    const moved = await m.update('c1', { baseUrl: 'https://collector.test' });
    expect(moved.hasSecret).toBe(false);
    expect(await vault.has(secretId('c1'))).toBe(false);
    expect((await m.test('c1')).message).toMatch(/has no credentials/);
    expect(seen).toHaveLength(0);
  });

  it('reads a secret bound to another origin as none (a vault entry moved behind its back)', async () => {
    const { m, vault, seen } = manager();
    await m.add({ name: 'P', baseUrl: 'https://api.example.com' });
    await m.setSecret('c1', { kind: 'api-key', apiKey: 'key-123456' });
    const entry = await vault.get(secretId('c1'));
    await m.add({ name: 'Q', baseUrl: 'https://collector.test' });
    await vault.set(secretId('c2'), entry ?? '');
    expect((await m.get('c2')).hasSecret).toBe(false);
    expect((await m.test('c2')).ok).toBe(false);
    expect(seen).toHaveLength(0);
  });

  it('allows plain http only to this machine and never link-local or metadata addresses', async () => {
    const { m } = manager();
    for (const bad of [
      'http://api.example.com',
      'http://10.0.0.1:8080',
      'https://169.254.169.254',
      'http://169.254.169.254/latest',
      'https://[fe80::1]',
      'https://metadata.google.internal',
      'https://[::ffff:a9fe:a9fe]',
      'http://2852039166/',
    ]) {
      expect(NewConnection.safeParse({ name: 'x', baseUrl: bad }).success, bad).toBe(false);
      await expect(m.add({ name: 'x', baseUrl: bad }), bad).rejects.toThrow(/base URL must/);
    }
    for (const good of [
      'http://127.0.0.1:9000',
      'http://localhost:3000',
      'http://[::1]:81',
      'https://api.example.com',
    ]) {
      expect(NewConnection.safeParse({ name: 'x', baseUrl: good }).success, good).toBe(true);
    }
    await m.add({ name: 'Local', baseUrl: 'http://127.0.0.1:9000' });
    await expect(m.update('c1', { baseUrl: 'http://example.com' })).rejects.toThrow(/https/);
  });

  it('gives the environment credentials only to the connection at STUDIO_BASE_URL', async () => {
    const env = { STUDIO_API_KEY: 'env-key-123456', STUDIO_BASE_URL: 'https://api.example.com/' };
    const { m, seen } = manager([ok([voice])], new EnvVault(env));
    await m.add({ name: 'Declared', baseUrl: 'https://api.example.com' });
    await m.add({ name: 'Other', baseUrl: 'https://collector.test' });
    expect((await m.get('c1')).hasSecret).toBe(true);
    expect((await m.get('c2')).hasSecret).toBe(false);
    expect((await m.test('c2')).message).toMatch(/has no credentials/);
    expect((await m.test('c1')).ok).toBe(true);
    expect(seen.map((r) => r.url)).toEqual(['https://api.example.com/api/open/v3/voice/list']);

    const undeclared = manager([], new EnvVault({ STUDIO_API_KEY: 'env-key-123456' }));
    await undeclared.m.add({ name: 'Any', baseUrl: 'https://api.example.com' });
    expect((await undeclared.m.get('c1')).hasSecret).toBe(false);
  });
});
