// A connection's callback setting (issue 69): the bridge refuses an address the service must not be
// told or a receiver cannot take, and the connections keep the setting beside the connection, never
// anything secret, one callback address a create.
import { describe, expect, it } from 'vitest';
import { ConnectionPatch, NewConnection } from '../../../electron/common/bridge/connections';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';

const base = { name: 'Production', baseUrl: 'https://api.example.com' };
const problems = (callbacks: unknown) => {
  const parsed = NewConnection.safeParse({ ...base, callbacks });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

function manager() {
  return new ConnectionManager({
    createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined }),
    vault: new MemoryVault(),
    sandbox: async () => ({ baseUrl: 'http://sandbox.test', apiKey: 'sandbox-key-1' }),
    newId: () => 'c1',
  });
}

describe("a connection's callback setting", () => {
  it('is https (plain http only to this machine), with no user, query or fragment, and a HOST:PORT to listen on', () => {
    expect(problems({ url: 'http://hooks.example.com/studio', listen: '127.0.0.1:8701' })).toEqual([
      'callback address must be https:// (plain http:// only to this machine)',
    ]);
    expect(problems({ url: 'https://me:pw@hooks.example.com/s', listen: '127.0.0.1:8701' })).toEqual([
      'callback address must not carry a user or password',
    ]);
    expect(problems({ url: 'https://hooks.example.com/s?k=1', listen: '127.0.0.1:8701' })).toEqual([
      'callback address must have no ?query or #fragment',
    ]);
    expect(problems({ url: 'not an address', listen: '127.0.0.1:8701' })).toEqual([
      'callback address is not an address',
    ]);
    expect(problems({ url: 'https://hooks.example.com/s', listen: '8701' })).toEqual([
      'listen address must be HOST:PORT (an IPv6 host in brackets)',
    ]);
    expect(problems({ url: 'https://hooks.example.com/s', listen: '127.0.0.1:0' })).toEqual([
      'listen address its port must be 1 to 65535',
    ]);
    expect(problems({ url: 'https://hooks.example.com/s', listen: '127.0.0.1:70000' })).toEqual([
      'listen address its port must be 1 to 65535',
    ]);
    // Kept as origin and path, the job's token to follow; loopback http and an IPv6 listen address pass.
    const parsed = NewConnection.parse({
      ...base,
      callbacks: { url: ' https://Hooks.Example.com/studio/ ', listen: '[::1]:8701' },
    });
    expect(parsed.callbacks).toEqual({ url: 'https://hooks.example.com/studio', listen: '[::1]:8701' });
    expect(problems({ url: 'http://127.0.0.1:8701/hooks', listen: '0.0.0.0:8701' })).toEqual([]);
    expect(ConnectionPatch.safeParse({ callbacks: null }).success).toBe(true);
  });

  it('is kept with the connection and shown in its view, and a connection sends one callback address', async () => {
    const m = manager();
    const callbacks = { url: 'https://hooks.example.com/studio', listen: '127.0.0.1:8701' };
    const added = await m.add({ ...base, callbacks });
    expect(added.callbacks).toEqual(callbacks);
    expect(m.callbacksOf('c1')).toEqual(callbacks);
    await expect(m.update('c1', { webhookUrl: 'https://other.example.com/hook' })).rejects.toThrow(
      /one callback address: clear the webhook URL/,
    );
    expect(m.callbacksOf('c1')).toEqual(callbacks);
    const cleared = await m.update('c1', { callbacks: null, webhookUrl: 'https://other.example.com/hook' });
    expect(cleared).toMatchObject({ callbacks: null, webhookUrl: 'https://other.example.com/hook' });
    expect(m.callbacksOf('c1')).toBeNull();
    await expect(m.update('sandbox', { callbacks })).rejects.toThrow(/cannot be renamed, moved or called back/);
  });
});
