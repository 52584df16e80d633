import { nothingToRetry, retriedWithTheFailed } from '../../common/campaign/row-review';
import { resolve } from 'node:path';
import type { JobRecord } from '../../common/bridge/jobs';
import { campaignSummaryOf, type CampaignSummary } from '../../common/bridge/campaigns';
import { campaignEndedSummary, CampaignRecord, type CampaignRowRecord } from '../../common/campaign/record';
import type { Project } from '../../common/composition/document';
import type { PlacementConvention } from '../../common/composition/placement';
import type { AvatarLinks } from '../../common/composition/avatar-links';
import type { Logger } from '../host/types';
import type { RowBase, RowKind, RowStepContext } from '../rows/engine/row-kind';
import type { RowEngine } from '../rows/engine/row-engine';
import type { RunRowPages, RunStore, RunStores, RunSummary } from '../rows/engine/run-store';
import { retriedRow } from './campaign-reuse';
import { ManifestWriter } from './manifest-writer';
import { latestStepJob, rowProject, type RowStep } from './row-project';
import {
  firstStep,
  rowStepPrices,
  saveProblem,
  stepSubmission,
  voiceoverProblem,
  voiceoverRequest,
  type VoiceMeasure,
} from './row-steps';
import { videoStep } from './video-step';
import { rowLabel } from '../../common/text/row-label';

export interface CampaignRowsDeps {
  /** The one row engine of the host (batches run on it too). */
  rows: RowEngine;
  /** The folder's runs (its records database), where campaigns are kept with their rows. */
  runs: RunStores;
  /** A row's request body made sendable: its text drawn as pictures and its local files uploaded. */
  prepare(body: Record<string, unknown>, project: Project): Promise<Record<string, unknown>>;
  /** Saves a row's made video into the campaign's folder (the one place a row's result is saved). */
  saveRow(record: CampaignRecord, row: CampaignRowRecord): Promise<void>;
  /**
   * A voice's length in ms from its audio link (ffprobe of the file the service made); every host gives
   * one (createCampaignRows). Without it voices are not measured, so no scene is fitted or held.
   */
  voiceLength?: VoiceMeasure;
  /** The active connection's placement convention, asked when a row's body is written. */
  placement?(): Promise<PlacementConvention | undefined>;
  /** The sending connection's avatars, asked when a row's body is written. */
  avatars?(): Promise<AvatarLinks | undefined>;
  log?: Logger;
  onChange?(record: CampaignRecord): void;
  /** Announces a campaign that has ended, once (never one notice per row). */
  notify?(title: string, body: string, outcome: 'completed' | 'failed'): void;
}

const KIND = 'campaign';

/** Campaigns among the folder's runs (kind `campaigns`, the folder earlier versions kept them in). */
export function campaignRuns(runs: RunStores): RunStore<CampaignRowRecord, CampaignRecord> {
  return runs.of<CampaignRowRecord, CampaignRecord>(
    'campaigns',
    (raw, path) => {
      const parsed = CampaignRecord.safeParse(raw);
      if (!parsed.success)
        throw new Error(
          `The campaign record ${path} cannot be read (${parsed.error.issues[0]?.message}); it was left as it is.`,
        );
      return parsed.data;
    },
    'campaign',
  );
}

/**
 * A campaign row's steps on the row engine: its scenes' voiceovers (one paid create each), its video
 * (a paid create whose body is drawn, mixed and uploaded first), then the save. The engine decides when
 * a step runs and never sends one twice; this says what each step is.
 */
function campaignKind(deps: CampaignRowsDeps, manifests: ManifestWriter): RowKind<CampaignRowRecord, CampaignRecord> {
  return {
    name: KIND,
    runs: campaignRuns(deps.runs),
    rowOf: (job) =>
      job.purpose.type === 'campaign-row' ? { runId: job.purpose.campaignId, row: job.purpose.row } : null,
    firstStep: (record, row) => firstStep(record, row),
    steps: (record, row) => rowStepPrices(record, row),
    step: (context) => step(deps, context),
    cancelled: (row) => ({ ...row, state: 'cancelled', problems: ['cancelled before it was sent'] }),
    redo: (row, jobs) => retriedRow(row, jobs, Date.now()),
    // A worker's one-row run is part of a studio's queued campaign, whose manifest is the studio's.
    finishing: async (record) => (record.partOf ? undefined : manifests.now(record)),
    queued: {
      // The studio that started the campaign saves its own copy of each row a worker made.
      local: (row) => row.state === 'download',
      received: (row, reported) => ({
        ...row,
        state: reported.state === 'done' ? 'download' : reported.state,
        problems: reported.problems,
        voiceovers: reported.voiceovers,
        voiceLengths: reported.voiceLengths,
        resultUrl: reported.resultUrl,
        formatResults: reported.formatResults,
        expiresAt: reported.expiresAt,
        savedAt: null,
        bucketCopy: reported.bucketCopy,
      }),
      // An earlier take made from other values or another template is not this row's video.
      sameMaking: (row, reported) =>
        row.madeFrom === reported.madeFrom && JSON.stringify(row.values) === JSON.stringify(reported.values),
    },
    onChange: (record) => {
      if (!record.partOf) manifests.changed(record);
      deps.onChange?.(record);
    },
    onFinished: (record) => {
      const { title, body, outcome } = campaignEndedSummary(record);
      deps.notify?.(title, body, outcome);
    },
  };
}

async function step(deps: CampaignRowsDeps, context: RowStepContext<CampaignRowRecord, CampaignRecord>): Promise<void> {
  const { run: record, row, jobs, paid, set, fail } = context;
  if (row.state === 'voiceover') {
    const project = rowProject(record, row);
    const audio: Record<string, string> = { ...row.voiceovers };
    for (const scene of project.scenes) {
      if (scene.voice?.kind !== 'tts' || audio[scene.id]) continue;
      const at: RowStep = { row: row.row, step: 'voiceover', sceneId: scene.id, take: row.take };
      const job = await paid(latestStepJob(jobs(), record.id, at), () =>
        stepSubmission(record.id, at, voiceoverRequest(scene)),
      );
      if (job === 'waiting') return;
      if (job.phase !== 'completed' || !job.resultUrl) return fail(voiceoverProblem(project, scene.id, job));
      audio[scene.id] = job.resultUrl;
    }
    return set((r) => ({ ...r, voiceovers: audio, state: 'video' }));
  }
  if (row.state === 'video') return videoStep(deps, context);
  if (row.state !== 'download') return;
  try {
    await deps.saveRow(record, row);
  } catch (error) {
    return fail(saveProblem(error));
  }
  return set((r) => ({ ...r, state: 'done', savedAt: Date.now() }));
}

/**
 * Campaigns as the studio's domains and the command line use them: one run kind of the row engine.
 * The reactor brings each campaign row's job end to the engine (`jobEnded`).
 */
export class CampaignRows {
  private readonly manifests: ManifestWriter;
  /** Every campaign's folder by id, read from disk once; campaigns made since are added as they are made. */
  private folders: Promise<Map<string, string>> | null = null;

  constructor(private readonly deps: CampaignRowsDeps) {
    this.manifests = new ManifestWriter({
      jobs: (id) => deps.rows.jobs(id),
      others: async (record) => (await this.inFolder(record.outDir)).filter((c) => c.id !== record.id),
      log: deps.log,
    });
    deps.rows.register(campaignKind(deps, this.manifests));
  }

  async create(record: CampaignRecord): Promise<CampaignRecord> {
    await this.deps.rows.create(KIND, record);
    (await this.folders)?.set(record.id, resolve(record.outDir));
    return record;
  }

  /** The campaign as revised from its spreadsheet (reviseCampaign): it goes on from there. */
  replace(record: CampaignRecord): Promise<void> {
    return this.deps.rows.replace(KIND, record);
  }

  /**
   * The campaigns saving into a folder, as they are now (the one record of each, in memory once read):
   * every start on a folder and every manifest look at them, so the records are not read from disk each
   * time. Which campaigns save there is read from their summaries: only those are opened with their rows.
   */
  async inFolder(outDir: string): Promise<CampaignRecord[]> {
    this.folders ??= this.summaries().then((all) => new Map(all.map((c) => [c.id, resolve(c.outDir)])));
    const folder = resolve(outDir);
    const ids = [...(await this.folders)].filter(([, dir]) => dir === folder).map(([id]) => id);
    const found = await Promise.all(ids.map((id) => this.get(id)));
    return found.filter((c): c is CampaignRecord => c !== null);
  }

  list(): Promise<CampaignRecord[]> {
    return this.deps.rows.list(KIND) as Promise<CampaignRecord[]>;
  }

  /** Every campaign as lists show it, newest first: its rows counted by the database, none read. */
  async summaries(): Promise<CampaignSummary[]> {
    const all = (await this.deps.rows.summaries(KIND)) as RunSummary<CampaignRecord>[];
    return all.map(({ run, counts, total }) => campaignSummaryOf(run, counts, total));
  }

  /** Pages of the campaigns' rows read where they are kept (null: cut from a campaign read whole). */
  async pages(): Promise<RunRowPages | null> {
    return (await this.deps.runs.pages?.()) ?? null;
  }

  get(id: string): Promise<CampaignRecord | null> {
    return this.deps.rows.get(KIND, id) as Promise<CampaignRecord | null>;
  }

  /** Goes on with every campaign that was running when the host stopped: only those are opened whole. */
  async resumeAll(): Promise<void> {
    for (const campaign of await this.summaries()) {
      const record = campaign.state === 'running' ? await this.get(campaign.id) : null;
      if (record) this.starting(record);
    }
    return this.deps.rows.resumeAll(KIND);
  }

  async run(id: string): Promise<CampaignRecord> {
    const record = await this.get(id);
    if (record) this.starting(record);
    return (await this.deps.rows.run(KIND, id)) as CampaignRecord;
  }

  jobEnded(job: Pick<JobRecord, 'purpose'>): Promise<void> {
    return this.deps.rows.jobEnded(job);
  }

  pause(id: string): Promise<CampaignRecord> {
    return this.deps.rows.pause(KIND, id) as Promise<CampaignRecord>;
  }

  resume(id: string): Promise<CampaignRecord> {
    return this.deps.rows.resume(KIND, id) as Promise<CampaignRecord>;
  }

  /** The manifest says so at once: rows not sent are cancelled in it (rows under way follow as they end). */
  async cancel(id: string): Promise<CampaignRecord> {
    const record = (await this.deps.rows.cancel(KIND, id)) as CampaignRecord;
    if (!record.partOf) await this.manifests.now(record);
    return record;
  }

  /**
   * Makes a row again (it failed, or the user wants another take of a done one), sending only what it
   * lacks (retriedRow): a video made and not saved is saved again, voiceovers not expired are kept.
   */
  async retryRow(id: string, row: number): Promise<CampaignRecord> {
    const after = (await this.deps.rows.redo(KIND, id, row, (current) => {
      if (current.state !== 'failed' && current.state !== 'done' && current.state !== 'cancelled')
        throw new Error(
          `${rowLabel(current, { capital: true })} can be made again once it has ended (it is ${current.state}).`,
        );
    })) as CampaignRecord;
    if (after.state === 'cancelled') throw new Error('The campaign was cancelled: start it again to make its rows.');
    return after;
  }

  /** Makes every failed row again at once (each its next take), less those waiting for review; the campaign goes on. */
  async retryFailed(id: string): Promise<CampaignRecord> {
    const record = await this.deps.rows.require(KIND, id);
    if (record.state === 'cancelled') throw new Error('The campaign was cancelled: start it again to make its rows.');
    const failed = record.rows.filter((r) => retriedWithTheFailed(r)).map((r) => r.row);
    if (failed.length === 0) throw new Error(nothingToRetry(record.rows));
    return (await this.deps.rows.redoRows(KIND, id, failed)) as CampaignRecord;
  }

  /** Sets or removes the cap ("stop after N credits"); a campaign paused at its cap goes on when resumed. */
  async setCap(id: string, maxCredits: number | null): Promise<CampaignRecord> {
    return (await this.deps.rows.update(KIND, id, (r) => ({ ...r, maxCredits }))) as CampaignRecord;
  }

  /**
   * A worker's row goes on only while its queued campaign does (asked before each paid request), and
   * `progress` hears of each change of it (its take's progress, kept at the queue).
   */
  guard(id: string, running: () => Promise<boolean>, progress?: (row: RowBase) => void): void {
    this.deps.rows.guard(KIND, id, running, progress && ((rows) => rows[0] && progress(rows[0])));
  }

  /** Lets go of an ended campaign's record (a worker's one-row run, once reported). */
  forget(id: string): Promise<void> {
    return this.deps.rows.forget(KIND, id);
  }

  async idle(): Promise<void> {
    await this.deps.rows.idle();
    await this.manifests.idle();
  }

  flush(): Promise<void> {
    return this.deps.rows.flush();
  }

  stop(): void {
    this.deps.rows.stop();
  }

  /**
   * A crash leaves the manifest up to one pause behind the folder, and a campaign going on may not
   * change a row for a while (its rows wait at the service): its first start in this process writes it
   * whole. Later starts write it only if a row ended since, as the writer has it up to date otherwise.
   */
  private starting(record: CampaignRecord): void {
    if (!record.partOf) this.manifests.changed(record);
  }
}
