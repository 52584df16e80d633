// A command line's --base-url is one connection among the others: its client is built with the options
// every client of the host gets. A worker's options carry the limiter of the workers' shared turns, so a
// worker started with --base-url that built a bare client would send outside the account's rate.
import { describe, expect, it } from 'vitest';
import { chooseConnection } from '../../../electron/cli/cli-route';
import type { CliIo } from '../../../electron/cli/command';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { createMemoryStoreFactory } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { ok, scriptedFetch, voice } from '../client/fake-fetch';

describe('the command line’s --base-url', () => {
  it('sends through the host’s own fetch and limiter (a worker’s shared turns), with the environment’s key', async () => {
    const fake = scriptedFetch([ok([voice])]);
    const turns: number[] = [];
    const limiter = {
      turn: async () => turns.push(turns.length) - 1,
      answered: () => undefined,
      refused: async () => undefined,
      scarce: () => false,
    };
    const connections = new ConnectionManager({
      createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined }),
      vault: new MemoryVault(),
      sandbox: async () => ({ baseUrl: 'http://sandbox.test', apiKey: 'sandbox-key-1' }),
      clientOptions: { fetch: fake.fetch, limiter, sleep: async () => undefined, maxAttempts: 1 },
    });
    const io: CliIo = { out: () => undefined, err: () => undefined, env: { STUDIO_API_KEY: 'key-123456' }, cwd: '/' };
    const args = { positional: [], flags: { '--base-url': 'https://api.example.com' } };
    const route = chooseConnection(args, io, connections);

    const client = await route.client((await route.active()).id);
    await client.call('voiceList', {});

    expect(fake.seen.map((r) => r.url)).toEqual(['https://api.example.com/api/open/v3/voice/list']);
    expect(fake.seen[0].headers['x-api-key']).toBe('key-123456');
    expect(turns).toEqual([0]);
  });
});
