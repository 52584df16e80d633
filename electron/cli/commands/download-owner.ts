import { extname, join, resolve } from 'node:path';
import type { DownloadView } from '../../common/bridge/downloads';
import type { JobRecord, JobView } from '../../common/bridge/jobs';
import type { MissingResult } from '../../services/downloads/saved-report';
import type { StartResult } from '../../services/downloads/downloads-service';
import { FileLedgerStorage } from '../../services/jobs/ledger';
import type { OwnerHost } from '../owner-host';
import { flag, type CliIo, type ParsedArgs } from '../command';
import { ProgressBars } from './progress-bars';

/** Downloads the manager is still working on; every other state is where this command stops following. */
const UNDER_WAY: ReadonlySet<DownloadView['state']> = new Set(['queued', 'downloading']);

/** What download.ts hands over: how it chooses the jobs and prints the outcome, the same both ways. */
export interface SaveChoice {
  choose(
    list: readonly JobView[],
    records: () => readonly JobRecord[],
  ): Promise<{ jobs: JobView[]; lost: MissingResult[] }>;
  report(
    requested: number,
    finals: readonly DownloadView[],
    skipped: StartResult['skipped'],
    interrupted: boolean,
  ): number;
  /** No job to save: answered as such. */
  nothing(): number;
}

/**
 * A lost copy goes back under its own folder and name: the owner takes a name template, so the old
 * name (its extension left to the result's) is given as one. A name a template would read as fields
 * cannot go that way and is skipped with the reason.
 */
function restoreRequest(lost: NonNullable<MissingResult['lost']>): { folder: string; template: string } | null {
  const stem = lost.relativeName.slice(0, lost.relativeName.length - extname(lost.relativeName).length);
  return /[{}]/.test(stem) || stem === '' ? null : { folder: lost.folder, template: stem };
}

/**
 * `studio download` beside a studio that has the data folder open: the jobs are chosen from its
 * Library, and its download manager fetches them (so the Library's Downloads shows them as it does its
 * own), while this process prints the progress and the outcome. An interrupted command leaves the
 * downloads to the studio; they go on there.
 */
export async function downloadThroughOwner(
  args: ParsedArgs,
  io: CliIo,
  owner: OwnerHost,
  dataDir: string,
  choice: SaveChoice,
): Promise<number> {
  const json = args.flags['--json'] === true;
  const list = await owner.owner.call('jobs.list');
  // The ledger on disk, read only, for what --missing needs beyond the views (the links' expiries).
  const { jobs, lost } = await choice.choose(list, () =>
    new FileLedgerStorage(join(dataDir, 'jobs'), { debug() {}, info() {}, warn() {}, error() {} }).loadAll(),
  );
  if (jobs.length === 0) return choice.nothing();
  if (!json)
    io.err(
      `Saving through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}); its Library shows the downloads.`,
    );
  // Every change is kept from before the first start, so none arriving ahead of its answer is lost.
  const latest = new Map<string, DownloadView>();
  let wake: () => void = () => {};
  const stop = owner.on('downloads.changed', (view) => {
    latest.set(view.id, view);
    wake();
  });
  try {
    const out = flag(args, '--out');
    const queued: DownloadView[] = [];
    const skipped: StartResult['skipped'] = [];
    if (out) {
      const started = await owner.owner.call('downloads.start', {
        jobIds: jobs.map((j) => j.id),
        folder: resolve(io.cwd, out),
        template: flag(args, '--template'),
      });
      queued.push(...started.queued);
      skipped.push(...started.skipped);
    } else {
      for (const missing of lost.filter((m) => jobs.some((j) => j.id === m.job.id))) {
        const back = missing.lost && restoreRequest(missing.lost);
        if (!back) {
          skipped.push({
            jobId: missing.job.id,
            reason: missing.lost
              ? `Its old name "${missing.lost.relativeName}" cannot be given back here; give --out DIR to save it.`
              : 'Never saved, so it has no place to go back to; give --out DIR to save it.',
          });
          continue;
        }
        const started = await owner.owner.call('downloads.start', { jobIds: [missing.job.id], ...back });
        queued.push(...started.queued);
        skipped.push(...started.skipped);
      }
    }
    for (const view of queued) if (!latest.has(view.id)) latest.set(view.id, view);
    const mine = () => queued.map((view) => latest.get(view.id) as DownloadView);
    const bars = !json && process.stderr.isTTY ? new ProgressBars((text) => process.stderr.write(text)) : null;
    while (mine().some((view) => UNDER_WAY.has(view.state))) {
      bars?.draw(mine());
      // The next change, or the owner gone (its reason ends the command).
      await Promise.race([new Promise<void>((done) => (wake = done)), owner.owner.lost]);
    }
    bars?.draw(mine());
    bars?.end();
    return choice.report(jobs.length, mine(), skipped, false);
  } finally {
    stop();
  }
}
