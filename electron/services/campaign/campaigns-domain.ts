import { nothingToRetry, retriedWithTheFailed } from '../../common/campaign/row-review';
import { queuedFormatsProblems } from '../../common/campaign/campaign-formats';
import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { CampaignInput, type CampaignView, type campaignsCalls } from '../../common/bridge/campaigns';
import { campaignViewFromSums } from './campaign-manifest';
import type { PriceQuote } from '../../common/bridge/jobs';
import type { CampaignRecord } from '../../common/campaign/record';
import type { LinkReport } from '../../common/composition/link-checks';
import type { Project } from '../../common/composition/document';
import { StudioError } from '../host/errors';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import { readSheetFile } from '../sheets/read-sheet';
import { MAX_CAMPAIGN_ROWS } from '../../common/campaign/rows';
import { checkCampaignTable, type CampaignCheck } from './campaign-check';
import type { SpeechEstimator } from './speech-estimate';
import { followHeld } from './campaign-hold';
import type { CampaignRows } from './campaign-rows';
import { campaignQuote, newCampaignRecord, requireCampaignConfirmed, reviseCampaign } from './campaign-setup';
import type { CampaignStills } from './campaign-stills';
import { rowProject } from './row-project';
import { columnVariables } from '../../common/campaign/variables';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { DownloadView } from '../../common/bridge/downloads';
import type { CampaignRowRecord } from '../../common/campaign/record';
import { linkedForQueue } from './queued-record';
import { existingFilesError, planOnFolder, retriedRow } from './campaign-reuse';
import { leaveUnchosen } from './rows-chosen';
import { inSelection } from '../../common/campaign/row-selection';
import { reusableVoiceovers, paidVoiceovers } from './step-reuse';
import { rowLabel } from '../../common/text/row-label';
import type { ConnectedWorker } from '../rows/queue/queue-workers';
import { QUEUE_READ_GUARD_MS, queueStatusReader } from '../rows/queue/queue-status';

export interface CampaignsDomainDeps {
  runner: CampaignRows;
  /** A project of the library by id. */
  openProject(id: string): Promise<Project>;
  /** The path of a file the user chose, by the reference the page holds; null when it was not granted. */
  pathOf(reference: string): string | null;
  /** The editor's link pre-flight (the media domain's checker), asked afresh. */
  checkLinks(urls: readonly string[]): Promise<LinkReport[]>;
  /** Each row's speech length, estimated with the draft voice (without it: counted in words). */
  speech?: SpeechEstimator;
  /** Rows' first frames and contact sheets (the preview's poster machinery). */
  stills: CampaignStills;
  /** Opens a file with the system's player; absent where the host has no desktop (the web host). */
  openPath?(path: string): Promise<void>;
  /** The record of copies' entries saved in a folder, checked on disk now (none known: nothing is kept). */
  folderCopies?(folder: string): Promise<readonly Pick<DownloadView, 'url' | 'savedPath' | 'state'>[]>;
  now?(): number;
  /**
   * Runs made on a queue: a queue address the user gave, as the run records it (without its password),
   * the template with its local files uploaded (a worker elsewhere reads links only), and what the
   * queue at a recorded address holds: the workers connected to it and BullMQ's counts of its jobs.
   */
  queue?: {
    address(url: string): string;
    link<T>(value: T): Promise<T>;
    workers(address: string): Promise<readonly ConnectedWorker[]>;
    counts(address: string): Promise<Record<string, number>>;
    /** What in a run its service could not fetch from a worker's row (loopback, private addresses). */
    unreachable?(record: CampaignRecord): Promise<string[]>;
  };
  /** How long a queue's status may take before Redis counts as unreachable (default QUEUE_READ_GUARD_MS). */
  queueReadGuardMs?: number;
}

/**
 * Campaigns for the page: check, price, start, follow, pause, resume, cancel, retry a row. Paths in the
 * spreadsheet's link columns are not read here (the page chose one file, not a folder): rows give links.
 */
export function createCampaignsDomain(
  { jobs, catalogue, queries }: Pick<StudioServices, 'jobs' | 'catalogue' | 'queries'>,
  deps: CampaignsDomainDeps,
): DomainModule<typeof campaignsCalls> {
  const now = deps.now ?? Date.now;
  /**
   * A campaign as the page sees it, with what the ledger says of its rows so far: summed there, once the
   * engine's writes so far are in it, so a page of large campaigns holds none of their jobs.
   */
  const campaignView = async (record: CampaignRecord): Promise<CampaignView> => {
    await jobs.flush();
    return campaignViewFromSums(record, queries, now());
  };
  const read = async (
    raw: CampaignInput,
  ): Promise<{
    input: ReturnType<typeof CampaignInput.parse>;
    check: Omit<CampaignCheck, 'readAs'> & { readAs: string };
    project: Project;
  }> => {
    const input = CampaignInput.parse(raw);
    if (!isAbsolute(input.outDir))
      throw new StudioError(
        'Choose the folder the videos go to (an absolute folder on this machine).',
        'invalid-folder',
      );
    const path = deps.pathOf(input.file);
    if (!path)
      throw new StudioError('That spreadsheet was not chosen in this studio; choose the file again.', 'not-allowed');
    const project = input.project ?? (await deps.openProject(input.projectId ?? ''));
    const table = await readSheetFile(path, { maxRows: MAX_CAMPAIGN_ROWS }).catch((error: Error) => {
      throw new StudioError(error.message, 'sheet-unreadable');
    });
    const check = await checkCampaignTable(
      { project, fileName: input.fileName },
      table.rows,
      { catalogue, checkLinks: deps.checkLinks, speech: deps.speech },
      {
        mapping: input.mapping,
        edits: input.edits,
        sheetLines: table.lines,
        // Only the rows asked for are read on: rows left out are not checked, priced or made.
        ...(input.rows ? { only: (n: number) => inSelection(input.rows ?? [], n) } : {}),
      },
    );
    return { input, project, check: { ...check, readAs: table.readAs } };
  };
  const recordOf = (
    input: ReturnType<typeof CampaignInput.parse>,
    project: Project,
    check: Omit<CampaignCheck, 'readAs'>,
  ): CampaignRecord =>
    newCampaignRecord({
      id: input.key ?? `campaign-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
      label: input.label,
      template: { project, fileName: input.fileName },
      check,
      sheetFolder: null,
      outDir: input.outDir,
      concurrency: input.concurrency,
    });
  /**
   * The campaign the input starts: a new one, or (its `key` naming one that exists) that one revised from
   * the spreadsheet: rows unchanged since keep their videos, changed and new rows are made again, and
   * with `retryFailed` the failed ones too. `existing` says which.
   */
  const startOf = async (raw: CampaignInput) => {
    const { input, project, check } = await read(raw);
    const fresh = recordOf(input, project, check);
    const existing = input.key === undefined ? null : await deps.runner.get(input.key);
    const whole = existing
      ? reviseCampaign(existing, fresh, {
          retryFailed: input.retryFailed === true,
          retryUnknown: input.retryUnknown === true,
          retry: (row) => retried(row, existing.id),
        })
      : fresh;
    const revised = input.rows ? leaveUnchosen(whole, input.rows) : whole;
    // The folder decides what is kept, saved again or sent, and which names need the user's choice.
    const plan = planOnFolder(
      revised,
      {
        campaigns: await deps.runner.inFolder(input.outDir),
        copies: (await deps.folderCopies?.(input.outDir)) ?? [],
        exists: (path) => existsSync(path),
        now: now(),
        voiceovers: paidVoiceovers(jobs.list(undefined, reusableVoiceovers(now())), now()),
      },
      input.existing,
    );
    // Started again, a paused campaign goes on (after a top-up); a cap given now replaces the one it had.
    const record: CampaignRecord = {
      ...plan.record,
      ...(plan.record.state === 'paused' ? { state: 'running' as const } : {}),
      pause: null,
      maxCredits: input.maxCredits !== undefined ? input.maxCredits : (plan.record.maxCredits ?? null),
    };
    return { check, project, record, existing, plan };
  };
  const onQueue = async (record: CampaignRecord, url: string): Promise<CampaignRecord> => {
    if (!deps.queue) throw new StudioError('This studio cannot send rows to a queue.', 'invalid-campaign');
    return linkedForQueue(record, deps.queue.address(url), deps.queue.link);
  };
  /** A run for a queue whose links the service could not fetch is refused before any price. */
  const queueable = async (raw: CampaignInput, record: CampaignRecord): Promise<void> => {
    const formats = raw.queue ? queuedFormatsProblems(record.template.project) : [];
    const problems = formats.length > 0 ? formats : raw.queue ? await deps.queue?.unreachable?.(record) : [];
    if (problems?.length)
      throw new StudioError(`These rows cannot go on a queue: ${problems.join(' ')}`, 'invalid-campaign');
  };
  const queueStatus = queueStatusReader(deps.queue, { now, guardMs: deps.queueReadGuardMs ?? QUEUE_READ_GUARD_MS });
  const retried = (row: CampaignRowRecord, campaignId: string) =>
    retriedRow(row, jobs.list(undefined, { runId: campaignId }), now());
  const quoteOf = (record: CampaignRecord): Promise<PriceQuote> => {
    const items = campaignQuote(record);
    if (items.length === 0)
      throw new StudioError(
        record.rows.some((r) => r.state === 'done' || r.state === 'download')
          ? 'Nothing is left to pay for: every row that can be sent is in the folder already (made earlier, kept) or only saved again.'
          : 'No row of the campaign can be sent; fix the rows named in the check first.',
        'nothing-to-send',
      );
    return jobs.quote(items);
  };
  const view = async (id: string) => {
    const record = await deps.runner.get(id);
    if (!record) throw new StudioError(`No campaign "${id}"`, 'not-found');
    return campaignView(record);
  };
  /** A checked row's filled project, as its campaign would send it. */
  const checkedRowProject = async (raw: CampaignInput, row: number): Promise<Project> => {
    const { input, project, check } = await read(raw);
    const found = check.rows.find((r) => r.row === row);
    if (!found) throw new StudioError(`The spreadsheet has no ${rowLabel({ row })}.`, 'not-found');
    if (found.problems.length > 0)
      throw new StudioError(
        `${rowLabel(found, { capital: true })} cannot be shown until it is fixed: ${found.problems.join('; ')}`,
        'invalid-row',
      );
    const record = recordOf(input, project, check);
    return rowProject(record, record.rows.find((r) => r.row === row) ?? record.rows[0]);
  };
  const savedRow = async (id: string, row: number) => {
    const record = await deps.runner.get(id);
    const found = record?.rows.find((r) => r.row === row);
    if (!record || !found) throw new StudioError(`The campaign has no ${rowLabel({ row })}.`, 'not-found');
    return { record, found, path: join(record.outDir, found.fileName) };
  };
  /** The campaign's failed rows alone, as retrying them all would send them (each only what it lacks). */
  const failedRows = async (id: string): Promise<CampaignRecord> => {
    const record = await deps.runner.get(id);
    if (!record) throw new StudioError(`No campaign "${id}"`, 'not-found');
    const rows = record.rows.filter((r) => retriedWithTheFailed(r)).map((r) => retried(r, id));
    if (rows.length === 0) throw new StudioError(nothingToRetry(record.rows), 'nothing-to-send');
    return { ...record, rows };
  };
  /** The row as a retry would send it (only what it lacks): what its price question prices. */
  const oneRow = async (id: string, row: number): Promise<CampaignRecord> => {
    const record = await deps.runner.get(id);
    const found = record?.rows.find((r) => r.row === row);
    if (!record || !found) throw new StudioError(`The campaign has no ${rowLabel({ row })}.`, 'not-found');
    return { ...record, rows: [retried(found, id)] };
  };
  /** The campaign with its scenes following their voices, and just the rows that this releases, to price. */
  const heldFitted = async (id: string) => {
    const existing = await deps.runner.get(id);
    if (!existing) throw new StudioError(`No campaign "${id}"`, 'not-found');
    const { record, released } = followHeld(existing);
    if (released.length === 0)
      throw new StudioError(
        'No held row fits by following its voice: fit the values named on each held row, then start the campaign again.',
        'nothing-to-send',
      );
    return { record, priced: { ...record, rows: record.rows.filter((r) => released.includes(r.row)) } };
  };
  return {
    // Quitting: nothing more is sent; what is at the service goes on and is picked up at the next start.
    async dispose() {
      deps.runner.stop();
      // A step or a finished campaign's manifest being written ends first (no temporary file is left).
      await deps.runner.idle();
      await deps.runner.flush();
    },
    handlers: {
      'campaigns.check': async (raw) => {
        const { check, plan, project } = await startOf(raw);
        return {
          readAs: check.readAs,
          variables: columnVariables({ project, fileName: raw.fileName }).map((v) => ({ id: v.key, name: v.name })),
          columns: check.columns,
          unused: check.unused,
          problems: check.problems,
          existing: plan.existing,
          kept: plan.kept,
          rows: check.rows.map((r) => ({
            row: r.row,
            line: r.line,
            fileName: r.fileName,
            values: { ...r.values },
            problems: r.problems,
            held: r.held,
          })),
          speech: check.speech,
        };
      },
      'campaigns.quote': async (raw) => {
        const { record } = await startOf(raw);
        await queueable(raw, record);
        return quoteOf(record);
      },
      'campaigns.create': async (raw, confirmation) => {
        const { check, record, existing, plan } = await startOf(raw);
        if (check.problems.length > 0) throw new StudioError(check.problems.join(' '), 'invalid-campaign');
        if (plan.existing.length > 0) throw existingFilesError(plan.existing, record.outDir);
        await queueable(raw, record);
        // The question's price, asked again here: a changed price or a full day's limit refuses it. A
        // campaign with nothing left to pay for (its rows kept from the folder) needs no answer.
        if (
          campaignQuote(record).length > 0 ||
          !(existing || plan.kept > 0 || record.rows.some((r) => r.state === 'download'))
        )
          requireCampaignConfirmed(await quoteOf(record), record, confirmation, jobs.policy());
        const made = raw.queue ? await onQueue(record, raw.queue) : record;
        if (existing) await deps.runner.replace(made);
        else await deps.runner.create(made);
        void deps.runner.run(made.id);
        return campaignView(made);
      },
      'campaigns.list': () => deps.runner.summaries(),
      'campaigns.get': view,
      'campaigns.pause': async (id) => campaignView(await deps.runner.pause(id)),
      'campaigns.resume': async (id) => {
        const record = await deps.runner.resume(id);
        void deps.runner.run(id);
        return campaignView(record);
      },
      'campaigns.cancel': async (id) => campaignView(await deps.runner.cancel(id)),
      // A retry that only saves again is priced as nothing (no line): there is nothing to ask.
      'campaigns.quoteRow': async (id, row) => {
        const single = await oneRow(id, row);
        return campaignQuote(single).length > 0 ? quoteOf(single) : jobs.quote([]);
      },
      'campaigns.quoteHeld': async (id) => quoteOf((await heldFitted(id)).priced),
      'campaigns.fitHeld': async (id, confirmation) => {
        const { record, priced } = await heldFitted(id);
        requireCampaignConfirmed(await quoteOf(priced), priced, confirmation, jobs.policy());
        await deps.runner.replace(record);
        void deps.runner.run(id);
        return campaignView(record);
      },
      'campaigns.rowProject': async (raw, row) => checkedRowProject(raw, row),
      'campaigns.contactSheet': async (raw, { rows }) => {
        const { input, project, check } = await read(raw);
        const record = recordOf(input, project, check);
        const good = record.rows.filter((r) => r.state === 'pending').slice(0, rows);
        if (good.length === 0)
          throw new StudioError('No row passes the check yet, so there is nothing to show.', 'nothing-to-send');
        return deps.stills
          .contactSheet(good.map((r) => ({ row: r.row, project: rowProject(record, r) })))
          .catch((error: Error) => {
            throw new StudioError(`The contact sheet could not be drawn: ${error.message}`, 'still-failed');
          });
      },
      'campaigns.rowStill': async (id, row) => {
        const { record, found, path } = await savedRow(id, row);
        const still = found.savedAt
          ? deps.stills.savedFrame(path, row)
          : deps.stills.firstFrame(rowProject(record, found), row);
        return still.catch((error: Error) => {
          throw new StudioError(
            `${rowLabel(found, { capital: true })}'s picture could not be drawn: ${error.message}`,
            'still-failed',
          );
        });
      },
      'campaigns.queueStatus': async (id) => {
        const record = await deps.runner.get(id);
        if (!record) throw new StudioError(`No campaign "${id}"`, 'not-found');
        return queueStatus(record.queue ?? null);
      },
      'campaigns.openFile': async (id, row) => {
        const { found, path } = await savedRow(id, row);
        if (!found.savedAt)
          throw new StudioError(`${rowLabel(found, { capital: true })} has no saved video yet.`, 'not-saved');
        if (!deps.openPath) return { path, opened: false };
        await deps.openPath(path);
        return { path, opened: true };
      },
      'campaigns.quoteFailed': async (id) => quoteOf(await failedRows(id)),
      'campaigns.retryFailed': async (id, confirmation) => {
        const failed = await failedRows(id);
        // One question for every failed row; asked again here, so a changed price or a full day refuses it.
        requireCampaignConfirmed(await quoteOf(failed), failed, confirmation, jobs.policy());
        const record = await deps.runner.retryFailed(id).catch((error: Error) => {
          throw new StudioError(error.message, 'cannot-retry');
        });
        void deps.runner.run(id);
        return campaignView(record);
      },
      'campaigns.setCap': async (id, maxCredits) => {
        await view(id);
        return campaignView(await deps.runner.setCap(id, maxCredits));
      },
      'campaigns.retryRow': async (id, row, confirmation) => {
        const single = await oneRow(id, row);
        // A retry that only saves again pays nothing and needs no answer.
        if (campaignQuote(single).length > 0)
          requireCampaignConfirmed(await quoteOf(single), single, confirmation, jobs.policy());
        const record = await deps.runner.retryRow(id, row).catch((error: Error) => {
          throw new StudioError(error.message, 'cannot-retry');
        });
        void deps.runner.run(id);
        return campaignView(record);
      },
    },
  };
}
