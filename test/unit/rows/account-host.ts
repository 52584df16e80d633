import type { RunningEmulator } from '../../../electron/emulator';
import { CatalogueService } from '../../../electron/services/catalogue/catalogue-service';
import { ServiceClient } from '../../../electron/services/client';
import { createCampaignRows, probedVoiceLength } from '../../../electron/services/campaign/campaign-services';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import type { LedgerStorage } from '../../../electron/services/jobs/ledger';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { PlainPolling } from '../../../electron/services/jobs/polling-strategy';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import type { RunStores } from '../../../electron/services/rows/engine/run-store';
import { createStorageServices } from '../../../electron/services/storage/storage-services';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { BatchRows } from '../../../electron/services/voices/batch-rows';

const QUICK = { baseMs: 100, capMs: 300, factor: 1.5, jitter: 0.3 };

/**
 * A host as the studio builds it, on one sandbox connection: one job engine (with the balance read from
 * quota/info), one row engine that campaigns and batches share, and the reactor bringing their jobs' ends
 * back. What the tests of the account's end (balance, day's limit, cap) run on.
 */
export function accountHost(
  em: RunningEmulator,
  dataDir: string,
  ledger?: (file: LedgerStorage) => LedgerStorage,
  runStores?: (stores: RunStores) => RunStores,
) {
  const client = new ServiceClient({ baseUrl: em.url, credentials: { kind: 'api-key', apiKey: em.apiKey } });
  const connections = {
    active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
    client: async () => client,
  };
  const records = openRecords(dataDir);
  // A test may stand between the row engine and its runs' records too.
  const runs = (runStores ?? ((stores) => stores))(records.runs);
  const engine = new JobEngine({
    // A test may stand between the engine and its ledger (to hold a write back at a moment it chooses).
    storage: (ledger ?? ((file) => file))(records.ledger),
    connections,
    clock: { now: () => Date.now() },
    polling: new PlainPolling(),
    scheduler: { queued: QUICK, processing: QUICK },
    balance: async () => (await client.call('quotaInfo', {})).credit,
  });
  const rows = new RowEngine({
    jobs: engine,
    connection: async () => 'sandbox',
  });
  const base = createMemoryHostBase({ sandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey }) });
  const storage = createStorageServices({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: base.sandbox,
    uploads: records.uploads,
  });
  const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
  const voiceLength = probedVoiceLength((url) => prober.probe(url));
  const campaigns = createCampaignRows({ dataDir, runs, engine, rows, storage, voiceLength });
  const batches = new BatchRows({ rows, runs, subscribe: (listener) => engine.subscribe(listener) });
  const reactor = new JobReactor({ engine });
  reactor.on('campaign-row', (job) => rows.jobEnded(job));
  reactor.on('batch-row', (job) => rows.jobEnded(job));
  engine.start();
  reactor.start();
  const catalogue = new CatalogueService({ connections, clock: { now: () => Date.now() } });
  return {
    engine,
    rows,
    campaigns,
    batches,
    catalogue,
    /** What the sandbox made for the ledger's rows: per row step, how many jobs it created. */
    created(): Map<string, number> {
      const counts = new Map<string, number>();
      for (const job of engine.records()) {
        const p = job.purpose;
        if (job.remoteId === null || (p.type !== 'batch-row' && p.type !== 'campaign-row')) continue;
        const key =
          p.type === 'batch-row'
            ? `b:${p.batchId}:${p.row}:${p.take ?? 0}`
            : `c:${p.campaignId}:${p.row}:${p.step}:${p.sceneId ?? ''}:${p.take}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    },
    async stop() {
      rows.stop();
      reactor.stop();
      engine.stop();
      await rows.idle();
      await rows.flush();
      await engine.flush();
    },
  };
}

/** The sandbox's own count of the jobs it made (its status control). */
export async function sandboxJobs(em: RunningEmulator): Promise<number> {
  const response = await fetch(`${em.url}/__sandbox/status`, { headers: { 'x-api-key': em.apiKey } });
  const body = (await response.json()) as { data: { jobs: { total: number } } };
  return body.data.jobs.total;
}

/** A batch of `count` short lines in the sandbox's voice. */
export function lines(count: number, maxCredits: number | null = null) {
  return {
    label: 'lines.csv',
    rows: Array.from({ length: count }, (_, row) => ({
      row,
      text: `Line ${row + 1}.`,
      voiceId: 'sandbox_ava',
      rate: '50%',
      name: null,
    })),
    invalid: [],
    concurrency: 4,
    template: '{row}',
    maxCredits,
  };
}
