// Issue 63/64: the built-in sandbox publishes its prices, so on a first run (a fresh data folder, no
// charge seen yet) the price question names a price for speech and videos and says how many rows the
// balance covers. Any other connection, even one to the very same sandbox, keeps the service's honest
// "not published": the real service publishes no such list.
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { BridgeOutcome, PriceQuote } from '@common/bridge';
import { coversText, quoteCovers } from '@common/jobs/run-pause';
import { UNPUBLISHED_NOTE } from '@common/jobs/cost-model';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { sandboxPriceList } from '../../../electron/services/catalogue/sandbox-prices';
import { composeHost } from '../../../electron/services/host/compose';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { CATALOGUE_ROOT, sandboxPerFile, SLOW } from '../emulator/harness';

const { dir, sandbox } = sandboxPerFile('studio-sandbox-prices-');

/** 200 rows of a campaign: a voiceover and an avatar video each. */
const ROWS = 200;
const CAMPAIGN = [
  { action: 'tts', count: ROWS },
  { action: 'avatar-video', count: ROWS },
] as const;

function studioOn(dataDir: string) {
  const em = sandbox();
  const host = composeHost({
    host: 'web',
    appVersion: 'test',
    dataDir,
    createVault: () => new MemoryVault(),
    platform: {},
    createStoreFactory: createConfStoreFactory,
    startSandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey, close: async () => undefined }),
  });
  const call = async <T>(channel: string, ...args: unknown[]): Promise<T> => {
    const outcome = (await host.dispatch(channel, args)) as BridgeOutcome<T>;
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.value;
  };
  return { host, call };
}

describe("the sandbox's published prices in the price question", { timeout: SLOW }, () => {
  it('price speech and videos on the sandbox of a fresh folder, and say how many rows the balance covers; another connection still says not published', async () => {
    const em = sandbox();
    em.setCredits(1_100);
    const { host, call } = studioOn(mkdtempSync(join(dir, 'studio-')));
    try {
      const quote = await call<PriceQuote>('jobs.quote', CAMPAIGN);
      expect(quote.connectionId).toBe('sandbox');
      expect(await call('jobs.list')).toEqual([]);
      expect(quote.items.map((i) => i.price)).toEqual([
        { published: true, credits: 1, basis: "the sandbox's price list: 1 credit a voiceover" },
        { published: true, credits: 10, basis: "the sandbox's price list: 10 credits an avatar video" },
      ]);
      expect(coversText(quote.balance, quoteCovers(quote, ROWS))).toMatch(
        /^Your balance of 1,100 credits covers about 100 of these 200 rows/,
      );

      // The same sandbox added as a connection of its own is priced as the service is: not published.
      const other = await call<{ id: string }>('connections.add', { name: 'Production', baseUrl: em.url });
      await call('connections.setSecret', other.id, { kind: 'api-key', apiKey: em.apiKey });
      await call('connections.setActive', other.id);
      const elsewhere = await call<PriceQuote>('jobs.quote', CAMPAIGN);
      expect(elsewhere.connectionId).toBe(other.id);
      for (const item of elsewhere.items)
        expect(item.price).toEqual({ published: false, note: UNPUBLISHED_NOTE, recent: null });
      expect(quoteCovers(elsewhere, ROWS)).toBeNull();
    } finally {
      await host.dispose();
      em.setCredits(1_000);
    }
  });

  it("the command line's question on the folder's own sandbox names the total and the rows the balance covers", async () => {
    const dataDir = mkdtempSync(join(dir, 'cli-'));
    // The folder's sandbox keeps its balance across starts: 3 credits for 5 voiceovers.
    const own = await startBuiltInSandbox(dataDir, { catalogueDir: CATALOGUE_ROOT });
    try {
      own.setCredits(3);
    } finally {
      await own.close();
    }
    writeFileSync(join(dir, 'spots.csv'), ['text', 'One.', 'Two.', 'Three.', 'Four.', 'Five.'].join('\n'));
    const err: string[] = [];
    const io: CliIo = { out: () => undefined, err: (t) => err.push(t), env: {}, cwd: dir };
    const args = ['tts-batch', 'spots.csv', '--out-dir', 'out', '--voice', 'Ava', '--data-dir', dataDir];
    const code = await runCli(args, io);
    const said = err.join('\n');
    expect(code, said).toBe(EXIT.refused);
    expect(said).toMatch(
      /5 × speech on "Sandbox": 5 credits \(5 × speech: 5 credits in total\.\) Balance: 3 credits\./,
    );
    expect(said).toMatch(/Your balance of 3 credits covers about 3 of these 5 rows/);
    expect(said).toMatch(/Nothing was sent/);
    expect(openLedger(dataDir).loadAll()).toEqual([]);
  });

  it('reads the list once per sandbox start', async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(`${request.url} ${request.headers['x-api-key']}`);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ code: 1000, msg: 'OK', data: { flat: { audioCreate: 2 }, modelList: [] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      let started = { baseUrl, apiKey: 'first-start' };
      const price = sandboxPriceList(async () => started);
      expect(await price('tts')).toEqual({ credits: 2, basis: "the sandbox's price list: 2 credits a voiceover" });
      expect(await price('avatar-video')).toBeNull();
      expect(await price('tts')).toMatchObject({ credits: 2 });
      expect(asked).toEqual(['/__sandbox/prices first-start']);
      // A sandbox started again elsewhere (a new address) is asked again.
      started = { baseUrl: baseUrl.replace('127.0.0.1', 'localhost'), apiKey: 'second-start' };
      await price('tts');
      expect(asked).toEqual(['/__sandbox/prices first-start', '/__sandbox/prices second-start']);
    } finally {
      server.close();
    }
  });
});
