import { writeCampaignManifest } from './campaign-manifest';
import { join } from 'node:path';
import { Code } from '../../common/api/error-codes';
import type { JobRecord, JobSubmission, JobView, SubmitResult } from '../../common/bridge/jobs';
import {
  CAMPAIGN_ROW_ENDED,
  CAMPAIGN_ROW_UNDER_WAY,
  campaignEndedSummary,
  type CampaignRecord,
  type CampaignRowRecord,
  type CampaignState,
} from '../../common/campaign/record';
import type { Project } from '../../common/composition/document';
import type { PlacementConvention } from '../../common/composition/placement';
import type { Logger } from '../host/types';
import { RunBalanceWatch, type BalanceReader, type RunBalanceOptions } from '../jobs/run-balance';
import { CampaignRecords, pendingCancelled, rowRetried } from './campaign-records';
import type { CampaignStore } from './campaign-store';
import { RatePlaces } from './rate-places';
import { latestStepJob, refusedBeforeCreate, rowProject, rowsAtService, type RowStep } from './row-project';
import {
  firstStep,
  saveProblem,
  stepSubmission,
  videoProblem,
  videoRequest,
  voiceoverProblem,
  voiceoverRequest,
  type StepRequest,
} from './row-steps';

/** The part of the job engine a campaign uses. */
export interface CampaignEngine {
  list(): JobView[];
  submit(submission: JobSubmission): Promise<SubmitResult>;
  balanceNow?: BalanceReader;
}

export interface CampaignRunnerDeps {
  engine: CampaignEngine;
  store: CampaignStore;
  /** A row's request body made sendable: its text drawn as pictures and its local files uploaded. */
  prepare(body: Record<string, unknown>, project: Project): Promise<Record<string, unknown>>;
  /** Saves a result link as a file (through a .part file, verified, then renamed). */
  download(url: string, target: string): Promise<void>;
  /** The active connection's placement convention, asked when a row's body is written. */
  placement?(): Promise<PlacementConvention | undefined>;
  log?: Logger;
  onChange?(record: CampaignRecord): void;
  /** Announces a campaign that has ended, once (never one notice per row). */
  notify?(title: string, body: string, outcome: 'completed' | 'failed'): void;
  /** The first pause after the service rate-limits a create (doubled while it keeps doing so). */
  backoffMs?: number;
  /** The clock, timers and period of the campaign's balance readings (tests replace them). */
  balanceReadings?: RunBalanceOptions;
}

const JOB_ENDED = new Set<JobView['phase']>(['completed', 'failed', 'outcome-unknown']);

/**
 * Runs each row's chain (its scenes' voiceovers, its video, the download) through the job engine, a
 * few rows at a time. The chain is advanced by the reactor when a row's job ends (`jobEnded`) and by
 * `run` at start, so a campaign goes on after a crash: before anything is sent for a step, the ledger
 * is asked whether that step of that take already has a job, so no row's job is ever created twice.
 * A row holds its place from its first create until it is done or failed; when the service
 * rate-limits, fewer rows are sent at once and the refused step is sent again after a pause.
 */
export class CampaignRunner {
  private readonly records: CampaignRecords;
  /** One advance at a time per row: two events for one row must not both send its next step. */
  private readonly rowLocks = new Map<string, Promise<void>>();
  /** Fewer rows at once while the service rate-limits a campaign. */
  private readonly rate: RatePlaces;
  /** Work started and not awaited by anyone (a row starting, a finish, a wait for the rate limit). */
  private readonly busy = new Set<Promise<unknown>>();
  private stopped = false;
  /** The balance when a campaign starts sending, every few minutes while it sends, and when it pauses or ends. */
  private readonly balances: RunBalanceWatch | null;

  constructor(private readonly deps: CampaignRunnerDeps) {
    this.records = new CampaignRecords(deps.store, (record) => deps.onChange?.(record));
    const read = deps.engine.balanceNow?.bind(deps.engine);
    const save = (id: string, balance: CampaignRecord['balance']) =>
      this.records.update(id, (r) => ({ ...r, balance }));
    this.balances = read ? new RunBalanceWatch({ ...deps.balanceReadings, read, save }) : null;
    this.rate = new RatePlaces({
      backoffMs: deps.backoffMs ?? 2_000,
      atService: (id) => rowsAtService(deps.engine.list(), id),
      resend: (id, row) => this.track(this.advance(id, row).then(() => this.pump(id))),
      track: (wait) => this.track(wait),
      log: deps.log,
    });
  }

  async create(record: CampaignRecord): Promise<CampaignRecord> {
    if (await this.get(record.id)) throw new Error(`A campaign "${record.id}" exists already`);
    await this.records.save(record);
    return record;
  }

  /** The campaign as revised from its spreadsheet (reviseCampaign): it goes on from there. */
  async replace(record: CampaignRecord): Promise<void> {
    await this.records.require(record.id);
    await this.records.save(record);
  }

  /** Every campaign, newest first. */
  list(): Promise<CampaignRecord[]> {
    return this.records.list();
  }

  /** Goes on with every campaign that was running when the host stopped (the ledger says what each row sent). */
  async resumeAll(): Promise<void> {
    for (const record of await this.list()) if (record.state === 'running') void this.run(record.id);
  }

  get(id: string): Promise<CampaignRecord | null> {
    return this.records.get(id);
  }

  /**
   * Goes on with the campaign: rows under way are looked up in the ledger and advanced, free places are
   * filled with pending rows. Resolves when the campaign has finished, or once it is paused or cancelled
   * and nothing of it is under way (jobs already sent go on at the service either way).
   */
  async run(id: string): Promise<CampaignRecord> {
    const going = (async () => {
      const record = await this.records.require(id);
      if (record.state === 'running' && !this.stopped) await this.balances?.started(id, record.balance);
      await Promise.all(
        record.rows.filter((r) => CAMPAIGN_ROW_UNDER_WAY.has(r.state)).map((r) => this.advance(id, r.row)),
      );
      this.pump(id);
    })();
    this.track(going);
    await going;
    await this.records.until(
      id,
      (now) =>
        this.stopped ||
        now.state === 'finished' ||
        (now.state !== 'running' && !now.rows.some((r) => CAMPAIGN_ROW_UNDER_WAY.has(r.state))),
    );
    const ended = await this.records.require(id);
    if (!this.stopped) await this.balances?.stopped(id, ended.state === 'finished');
    return this.records.require(id);
  }

  /** The reactor's handler for a campaign row's job that ended: the row's chain moves on. */
  jobEnded(job: Pick<JobRecord, 'purpose'>): Promise<void> {
    const purpose = job.purpose;
    if (purpose.type !== 'campaign-row') return Promise.resolve();
    const moving = this.get(purpose.campaignId).then(async (record) => {
      if (!record) return;
      await this.advance(record.id, purpose.row);
      this.rate.unpark(record.id);
    });
    this.track(moving);
    return moving;
  }

  /** No new row starts; rows under way finish their chain. */
  pause(id: string): Promise<CampaignRecord> {
    return this.setState(id, 'paused');
  }

  async resume(id: string): Promise<CampaignRecord> {
    const record = await this.setState(id, 'running');
    this.pump(id);
    return record;
  }

  /** Rows not sent yet never are; a row under way stops before its next paid step. */
  async cancel(id: string): Promise<CampaignRecord> {
    await this.setState(id, 'cancelled');
    await this.records.update(id, pendingCancelled);
    return this.records.require(id);
  }

  /**
   * Makes a row again (it failed, or the user wants another take of a done one): its next take sends
   * new jobs, paid like the first. The earlier take's jobs stay in the ledger.
   */
  async retryRow(id: string, row: number): Promise<CampaignRecord> {
    const record = await this.records.require(id);
    const current = record.rows.find((r) => r.row === row);
    if (!current) throw new Error(`The campaign has no row ${row + 1}.`);
    if (current.state !== 'failed' && current.state !== 'done' && current.state !== 'cancelled')
      throw new Error(`Row ${row + 1} can be made again once it has ended (it is ${current.state}).`);
    await this.records.update(id, (r) => rowRetried(r, row));
    const after = await this.records.require(id);
    if (after.state === 'cancelled') throw new Error('The campaign was cancelled: start it again to make its rows.');
    this.pump(id);
    return after;
  }

  /**
   * Settles once nothing of this runner is moving: no row advancing or starting, no wait for the rate
   * limit (a campaign may still wait for jobs at the service). Tests await it instead of sleeping.
   */
  async idle(): Promise<void> {
    for (;;) {
      const moving = [...this.rowLocks.values(), ...this.busy];
      if (moving.length === 0) return;
      await Promise.all(moving);
    }
  }

  /** Settles once every change of the records so far is on disk. */
  flush(): Promise<void> {
    return this.records.flush();
  }

  /** Sends nothing more (quitting); what is under way at the service goes on and is picked up at the next start. */
  stop(): void {
    this.stopped = true;
    this.balances?.stop();
    this.rate.stop();
    this.records.stop();
  }

  /** Fills the campaign's free places with pending rows, in row order. */
  private pump(id: string): void {
    const record = this.records.inMemory(id);
    if (!record || record.state !== 'running' || this.stopped) return;
    if (this.rate.pausing(id)) return;
    const limit = this.rate.limit(id, record.concurrency);
    let under = record.rows.filter((r) => CAMPAIGN_ROW_UNDER_WAY.has(r.state)).length;
    const pending = record.rows.filter((r) => r.state === 'pending');
    for (const row of pending) {
      if (under >= limit) break;
      under += 1;
      this.track(
        this.start(id, row.row).catch((error: unknown) =>
          this.deps.log?.warn('a campaign row could not start', { campaign: id, row: row.row, error: String(error) }),
        ),
      );
    }
    if (pending.length === 0 && under === 0)
      this.track(
        this.finish(id).catch((error: unknown) =>
          this.deps.log?.warn('a finished campaign could not be written down', { campaign: id, error: String(error) }),
        ),
      );
  }

  /** Takes the row's place at once (in memory, before anything awaits), so two pumps never fill one place twice. */
  private async start(id: string, row: number): Promise<void> {
    const record = this.records.inMemory(id) as CampaignRecord;
    const first = firstStep(record, record.rows.find((r) => r.row === row) as CampaignRowRecord);
    const saved = this.records.setRow(id, row, (r) => (r.state === 'pending' ? { ...r, state: first } : r));
    await saved;
    await this.advance(id, row);
  }

  /** Moves one row's chain as far as it can go now; safe to call any number of times. */
  private advance(id: string, row: number): Promise<void> {
    const key = `${id}:${row}`;
    const before = this.rowLocks.get(key) ?? Promise.resolve();
    const next = before
      .then(() => this.step(id, row))
      .catch((error: unknown) => {
        this.deps.log?.warn('a campaign row could not go on', { campaign: id, row, error: String(error) });
        return this.fail(
          id,
          row,
          `the studio could not go on with it: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    this.rowLocks.set(key, next);
    void next.finally(() => {
      if (this.rowLocks.get(key) === next) this.rowLocks.delete(key);
    });
    return next;
  }

  private async step(id: string, rowNumber: number): Promise<void> {
    if (this.stopped) return;
    const record = await this.records.require(id);
    const row = record.rows.find((r) => r.row === rowNumber);
    if (!row || !CAMPAIGN_ROW_UNDER_WAY.has(row.state)) return;
    if (row.state === 'voiceover') {
      const project = rowProject(record, row);
      const audio: Record<string, string> = { ...row.voiceovers };
      for (const scene of project.scenes) {
        if (scene.voice?.kind !== 'tts' || audio[scene.id]) continue;
        const step: RowStep = { row: row.row, step: 'voiceover', sceneId: scene.id, take: row.take };
        const job = await this.jobFor(record, row, step, () => voiceoverRequest(scene));
        if (job === 'waiting') return;
        if (job.phase !== 'completed' || !job.resultUrl)
          return this.fail(id, rowNumber, voiceoverProblem(project, scene.id, job));
        audio[scene.id] = job.resultUrl;
      }
      await this.records.setRow(id, rowNumber, (r) => ({ ...r, voiceovers: audio, state: 'video' }));
      return this.step(id, rowNumber);
    }
    if (row.state === 'video') {
      const step: RowStep = { row: row.row, step: 'video', take: row.take };
      const job = await this.jobFor(record, row, step, async () =>
        videoRequest(record, row, await this.deps.placement?.(), (body, project) => this.deps.prepare(body, project)),
      );
      if (job === 'waiting') return;
      if (job.phase !== 'completed' || !job.resultUrl) return this.fail(id, rowNumber, videoProblem(job));
      await this.records.setRow(id, rowNumber, (r) => ({
        ...r,
        resultUrl: job.resultUrl,
        expiresAt: job.expiresAt,
        state: 'download',
      }));
      return this.step(id, rowNumber);
    }
    // download
    try {
      await this.deps.download(row.resultUrl as string, join(record.outDir, row.fileName));
    } catch (error) {
      return this.fail(id, rowNumber, saveProblem(error));
    }
    await this.records.setRow(id, rowNumber, (r) => ({ ...r, state: 'done', savedAt: Date.now() }));
    this.pump(id);
  }

  /**
   * The job of one step of one take: the ledger's when it has one (never sent again), else a new one
   * sent now. 'waiting' while it is at the service (its end advances the row again) or while the
   * service rate-limits the campaign.
   */
  private async jobFor(
    record: CampaignRecord,
    row: CampaignRowRecord,
    step: RowStep,
    make: () => StepRequest | Promise<StepRequest>,
  ): Promise<JobView | 'waiting'> {
    const known = latestStepJob(this.deps.engine.list(), record.id, step);
    if (known && !(refusedBeforeCreate(known) && known.error?.code === Code.TooFrequent))
      return JOB_ENDED.has(known.phase) ? known : 'waiting';
    const now = await this.records.require(record.id);
    if (now.state === 'cancelled') {
      await this.records.setRow(record.id, row.row, (r) => ({
        ...r,
        state: 'cancelled',
        problems: ["the campaign was cancelled before this row's next step was sent"],
      }));
      this.records.wake();
      return 'waiting';
    }
    const made = await make();
    // Stopped while the body was being made (pictures drawn, files uploaded): nothing more is sent.
    if (this.stopped) return 'waiting';
    const result = await this.deps.engine.submit(stepSubmission(record.id, step, made));
    if (result.status !== 'submitted') return 'waiting';
    const job = result.job;
    if (refusedBeforeCreate(job) && job.error?.code === Code.TooFrequent) {
      this.rate.refused(record.id, row.row, record.concurrency);
      return 'waiting';
    }
    return JOB_ENDED.has(job.phase) ? job : 'waiting';
  }

  private async fail(id: string, row: number, reason: string): Promise<void> {
    await this.records.setRow(id, row, (r) => ({ ...r, state: 'failed', problems: [reason] }));
    this.pump(id);
  }

  private async finish(id: string): Promise<void> {
    const record = this.records.inMemory(id);
    const ended = record?.state === 'running' && record.rows.every((r) => CAMPAIGN_ROW_ENDED.has(r.state));
    if (!record || !ended || this.rowLocks.has(`${id}:finish`)) return;
    // The manifest goes first, so whoever waits for the finish finds it written; one finish at a time.
    const manifest = writeCampaignManifest({ ...record, state: 'finished' }, this.deps.engine.list()).then(
      () => undefined,
      (error: Error) => this.deps.log?.warn('campaign manifest not written', { id, error: error.message }),
    );
    this.rowLocks.set(`${id}:finish`, manifest);
    await manifest.finally(() => this.rowLocks.delete(`${id}:finish`));
    const saved = this.records.update(id, (r) => ({ ...r, state: 'finished' }));
    const { title, body, outcome } = campaignEndedSummary(record);
    this.deps.notify?.(title, body, outcome);
    await saved;
  }

  private async setState(id: string, state: CampaignState): Promise<CampaignRecord> {
    const record = await this.records.require(id);
    if (record.state === state || (record.state === 'finished' && state !== 'running')) return record;
    await this.records.update(id, (r) => ({ ...r, state }));
    return this.records.require(id);
  }

  private track(work: Promise<unknown>): void {
    this.busy.add(work);
    void work.finally(() => this.busy.delete(work));
  }
}
