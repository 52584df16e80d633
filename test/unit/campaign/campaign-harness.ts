import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../electron/emulator';
import { CatalogueService } from '../../../electron/services/catalogue/catalogue-service';
import { ServiceClient } from '../../../electron/services/client';
import { checkCampaignTable } from '../../../electron/services/campaign/campaign-check';
import {
  createCampaignRows,
  probedVoiceLength,
  type CampaignHost,
} from '../../../electron/services/campaign/campaign-services';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { readLedgerJobs } from '../../read-ledger';
import { ledgerQueries } from '../../../electron/services/records/job-queries';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { RowEngine } from '../../../electron/services/rows/engine/row-engine';
import { createStorageServices } from '../../../electron/services/storage/storage-services';
import type { CampaignTemplate } from '@common/campaign/variables';
import { setOutput } from '@common/composition';
import { CATALOGUE_ROOT } from '../emulator/harness';
import { loadTemplate } from './template-fixture';

export function startSandbox(dir: string, options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    jobSeconds: 0.1,
    catalogueDir: CATALOGUE_ROOT,
    dataDir: join(dir, 'sandbox'),
    ...options,
  });
}

/** The greeting at a small size and short scenes, so the sandbox renders each row quickly. */
export function smallTemplate(fileName = '{{row}} - {{First name}}'): CampaignTemplate {
  const { project } = loadTemplate(fileName);
  const small = setOutput(project, { width: 320, height: 180 });
  return { fileName, project: { ...small, scenes: small.scenes.map((s) => ({ ...s, durationMs: 1000 })) } };
}

/**
 * One run of a host on a data folder, as the CLI and the app build it: an engine on its ledger, the
 * reactor advancing campaign rows, and the runner. Dropping it (stop) is what a crash leaves behind.
 */
export function campaignHost(
  em: RunningEmulator,
  dataDir: string,
  notes: string[] = [],
  extra: Pick<CampaignHost, 'mixMusic' | 'voicePart'> = {},
) {
  const client = new ServiceClient({ baseUrl: em.url, credentials: { kind: 'api-key', apiKey: em.apiKey } });
  const connections = {
    active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
    client: async () => client,
  };
  // One connection to the folder's records, as every host opens them: the ledger, the upload links, the runs.
  const records = openRecords(dataDir);
  const engine = new JobEngine({
    storage: records.ledger,
    connections,
    clock: { now: () => Date.now() },
  });
  const prober = new MediaProber(async () => (await resolveMediaBinary('ffprobe')).path, new ProcessRunner());
  const base = createMemoryHostBase({ sandbox: async () => ({ baseUrl: em.url, apiKey: em.apiKey }) });
  const storage = createStorageServices({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: base.sandbox,
    uploads: records.uploads,
  });
  const runner = createCampaignRows({
    dataDir,
    runs: records.runs,
    engine,
    rows: new RowEngine({ jobs: engine }),
    storage,
    // Each voiceover measured as the app does: ffprobe of the file the sandbox made.
    voiceLength: probedVoiceLength((url) => prober.probe(url)),
    notify: (title, body) => notes.push(`${title}: ${body}`),
    ...extra,
  });
  const reactor = new JobReactor({ engine });
  reactor.on('campaign-row', (job) => runner.jobEnded(job));
  engine.start();
  reactor.start();
  const catalogue = new CatalogueService({ connections, clock: { now: () => Date.now() } });
  return {
    engine,
    runner,
    catalogue,
    /** The ledger's queries, as every host builds them (the campaign views sum a run's jobs there). */
    queries: ledgerQueries(records.ledger, () => engine.records()),
    /**
     * What a killed host leaves: nothing more is sent or written. A create already on its way is let
     * finish first (a kill in the middle of one leaves it "outcome unknown" in the ledger, never re-sent:
     * the engine's own kill tests cover that), so two hosts never send at once.
     */
    async stop() {
      runner.stop();
      reactor.stop();
      engine.stop();
      await runner.idle();
      await runner.flush();
      await engine.flush();
    },
  };
}

/** Checks the lines against the sandbox's voices and avatars (links taken as good) and creates the campaign. */
export async function createCampaign(
  host: ReturnType<typeof campaignHost>,
  lines: string[][],
  outDir: string,
  options: { id?: string; concurrency?: number; template?: CampaignTemplate } = {},
) {
  const template = options.template ?? smallTemplate();
  const check = await checkCampaignTable(template, lines, {
    catalogue: host.catalogue,
    checkLinks: async (urls) =>
      urls.map((url) => ({
        url,
        ok: true,
        kind: 'image' as const,
        format: 'png' as const,
        durationMs: null,
        sizeBytes: 1,
        checkedAt: 0,
      })),
  });
  if (check.problems.length > 0) throw new Error(check.problems.join('\n'));
  return host.runner.create(
    newCampaignRecord({
      id: options.id ?? 'c1',
      label: 'prospects.csv',
      template,
      check,
      sheetFolder: null,
      outDir,
      concurrency: options.concurrency ?? 3,
    }),
  );
}

export const NAMES = ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kim', 'Lu'];

/** A header and one line per name; `blank` rows lose their first name (the check refuses them). */
export function prospects(em: RunningEmulator, count: number, blank: readonly number[] = []): string[][] {
  const logo = `${em.url}/sandbox/sandbox-backdrop.png`;
  return [
    ['First name', 'company', 'voice', 'avatar', 'logo'],
    ...NAMES.slice(0, count).map((name, i) => [
      blank.includes(i) ? '' : name,
      `Co ${i + 1}`,
      'Ava',
      'SandboxBen',
      logo,
    ]),
  ];
}

/** Jobs the service made per row step (row:step:scene:take) in a data folder's ledger; a step created twice counts 2. */
export function createdPerStep(dataDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const job of readLedgerJobs(dataDir)) {
    const p = job.purpose;
    if (p?.type !== 'campaign-row' || job.remoteId === null) continue;
    const key = `${p.row}:${p.step}:${p.sceneId ?? ''}:${p.take}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
