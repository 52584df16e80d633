// Issue 50's test: one record of every saved copy. From a fresh data folder, through the command line
// with no studio open and then the real host on the same folder: a campaign, a batch, a `tts --out` file
// and a `download` are all recorded where the Library, `jobs show` and `download --missing` read them;
// a deleted, a modified and a moved file are named the same way everywhere and come back byte-identical
// under their own names; the archive writes no second copy; an earlier version's folder is adopted.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { type DownloadView } from '../../../electron/common/bridge/downloads';
import { copyStateOf } from '../../../electron/common/bridge/download-words';
import { MAX_PAGE_JOBS, type JobRecord, type JobView } from '../../../electron/common/bridge/jobs';
import { hashFile } from '../../../electron/services/downloads/copy-check';
import Database from 'libsql';
import { queueFile, cliQueueFile } from '../../../electron/services/downloads/queue-file';
import { DATABASE_FILE } from '../../../electron/services/records/database';
import { openLedger, openRecords } from '../../../electron/services/records/open-ledger';
import { FolderQueueReader } from '../../../electron/services/records/sqlite-downloads';
import { DownloadsService } from '../../../electron/services/downloads/downloads-service';
import { Archive } from '../../../electron/services/downloads/archive';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { summariseCopies } from '../../../electron/common/jobs/copy-summary';
import { emptyFilter, matchesFilter } from '../../../renderer/src/views/library/job-filters';
import { rowCopy } from '../../../renderer/src/views/campaigns/campaign-logic';
import { makeImage } from '../../fixtures/composition/make-media';
import { smallTemplate } from '../campaign/campaign-harness';
import { startOwner, type OwnerFixture } from './owner-fixture';
import { until } from '../../wait';

const dir = mkdtempSync(join(tmpdir(), 'studio-copies-'));
const data = join(dir, 'data');
const silent = { debug() {}, info() {}, warn() {}, error() {} };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `studio` command on the folder with no studio open, run from `dir`. */
async function cli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const lines = { out: [] as string[], err: [] as string[] };
  const io: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: dir };
  return { code: await runCli([...args, '--data-dir', data], io), ...lines };
}

const ledger = (): JobRecord[] => openLedger(data, { log: silent }).loadAll();
const videoRows = () =>
  ledger().filter((j) => j.purpose.type === 'campaign-row' && j.purpose.step === 'video' && j.phase === 'completed');
const batchRows = () => ledger().filter((j) => j.purpose.type === 'batch-row' && j.phase === 'completed');

/** The saved copies the record holds from this writer, as the database has them now, each with its hash. */
async function recordedBy(origin: DownloadView['origin']): Promise<string[]> {
  const entries = await new FolderQueueReader(data).entries('studio');
  const mine = entries.filter((e) => e.origin === origin && e.state === 'saved');
  expect(mine.every((e) => /^[0-9a-f]{64}$/.test(e.sha256 ?? ''))).toBe(true);
  return mine.map((e) => e.savedPath as string).sort();
}

/** The Library's Download column and its "Not saved" filter, as the page works them out from the record. */
function library(jobs: readonly JobView[], entries: readonly DownloadView[]) {
  const downloads = (job: JobView) => entries.filter((e) => e.jobId === job.id);
  const now = Date.now();
  const notSaved = jobs.filter((job) =>
    matchesFilter(job, { ...emptyFilter(), notSaved: true }, { now, projectName: () => null, downloads }),
  );
  return { state: (job: JobView) => summariseCopies(job, downloads(job), now), notSaved };
}

/** The saved copy of each job, by job id (the file and its hash as recorded). */
function copiesByJob(entries: readonly DownloadView[]): Map<string, DownloadView> {
  return new Map(entries.filter((e) => e.state === 'saved').map((e) => [e.jobId, e]));
}

let owner: OwnerFixture | undefined;
afterEach(async () => {
  await owner?.close();
  owner = undefined;
});

const saved: { jobId: string; path: string; by: string }[] = [];

/** Every entry of these jobs, a page of jobs at a time: `downloads.list` answers only the downloads under way. */
async function entriesOf(owner: OwnerFixture, jobs: readonly { id: string }[]): Promise<DownloadView[]> {
  const out: DownloadView[] = [];
  for (let at = 0; at < jobs.length; at += MAX_PAGE_JOBS)
    out.push(
      ...(await owner.call(
        'downloads.ofJobs',
        jobs.slice(at, at + MAX_PAGE_JOBS).map((j) => j.id),
      )),
    );
  return out;
}

describe('one record of every saved copy', () => {
  it('campaign rows, a batch, a tts --out file and a download made with no studio open are saved everywhere; deleted, modified and moved files are named everywhere and come back byte-identical; the archive adds nothing', async () => {
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    makeImage(join(dir, 'logo.png'), { colour: 'orange', width: 64, height: 64 });
    writeFileSync(
      join(dir, 'prospects.csv'),
      [
        'First name,company,voice,avatar,logo',
        'Ana,Acme,Ava,SandboxBen,logo.png',
        'Bo,Beta,Oliver,SandboxBen,logo.png',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'spots.csv'), 'text,name\nFirst spot.,one\nSecond spot.,two\n');

    // With no studio open: every way of saving a result from the command line.
    const campaign = await cli([
      'campaign',
      'run',
      'greeting.json',
      'prospects.csv',
      '--out',
      'camp',
      '--yes',
      '--json',
    ]);
    expect(campaign.code, campaign.err.join('\n')).toBe(EXIT.ok);
    // Recorded by the run that saved them (not found later): the verified download's hash with each.
    expect(await recordedBy('campaign')).toEqual([join(dir, 'camp', '1 - Ana.mp4'), join(dir, 'camp', '2 - Bo.mp4')]);
    const batch = await cli(['tts-batch', '--yes', 'spots.csv', '--out-dir', 'batch', '--voice', 'Ava', '--json']);
    expect(batch.code, batch.err.join('\n')).toBe(EXIT.ok);
    expect(await recordedBy('batch')).toEqual([join(dir, 'batch', '1-one.mp3'), join(dir, 'batch', '2-two.mp3')]);
    const said = await cli([
      'tts',
      '--yes',
      '--voice',
      'sandbox_ava',
      '--text',
      'Kept with out.',
      '--out',
      'tts/said.mp3',
      '--json',
    ]);
    expect(said.code, said.err.join('\n')).toBe(EXIT.ok);
    const saidId = (JSON.parse(said.out.join('\n')) as JobView).id;
    const later = await cli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Kept by download.', '--json']);
    const laterId = (JSON.parse(later.out.join('\n')) as JobView).id;
    const fetched = await cli(['download', laterId, '--out', 'dl', '--json']);
    expect(fetched.code, fetched.err.join('\n')).toBe(EXIT.ok);
    const laterPath = (JSON.parse(fetched.out.join('\n')) as { path: string }[])[0].path;

    expect(readdirSync(join(dir, 'camp')).sort()).toEqual(['1 - Ana.mp4', '2 - Bo.mp4', 'manifest.csv']);
    expect(readdirSync(join(dir, 'batch')).sort()).toEqual(['1-one.mp3', '2-two.mp3', 'manifest.csv']);
    const videos = videoRows().sort((a, b) =>
      a.purpose.type === 'campaign-row' && b.purpose.type === 'campaign-row' ? a.purpose.row - b.purpose.row : 0,
    );
    const rows = batchRows().sort((a, b) =>
      a.purpose.type === 'batch-row' && b.purpose.type === 'batch-row' ? a.purpose.row - b.purpose.row : 0,
    );
    expect([videos.length, rows.length]).toEqual([2, 2]);
    saved.push(
      { jobId: videos[0].id, path: join(dir, 'camp', '1 - Ana.mp4'), by: 'campaign' },
      { jobId: videos[1].id, path: join(dir, 'camp', '2 - Bo.mp4'), by: 'campaign' },
      { jobId: rows[0].id, path: join(dir, 'batch', '1-one.mp3'), by: 'batch' },
      { jobId: rows[1].id, path: join(dir, 'batch', '2-two.mp3'), by: 'batch' },
      { jobId: saidId, path: join(dir, 'tts', 'said.mp3'), by: 'cli' },
      { jobId: laterId, path: laterPath, by: 'cli' },
    );
    // A command line with no studio open writes the one record, not a file of its own.
    expect(existsSync(cliQueueFile(data))).toBe(false);

    // The studio opens the folder: its Library shows every result saved at its path, steps aside.
    owner = await startOwner({ dataDir: data });
    expect(await owner.call('downloads.check')).toEqual({ checked: 6, lost: 0 });
    const jobs = await owner.call('jobs.list');
    const entries = await entriesOf(owner, jobs);
    const shown = library(jobs, entries);
    for (const copy of saved) {
      const job = jobs.find((j) => j.id === copy.jobId) as JobView;
      expect(shown.state(job).state, copy.path).toBe('saved');
      expect(shown.state(job).saved.map((d) => [d.savedPath, d.origin])).toEqual([[copy.path, copy.by]]);
    }
    // Nothing is "Not saved": the campaign's voiceovers are steps of its videos, not results of their own.
    expect(shown.notSaved.map((j) => j.id)).toEqual([]);
    const steps = jobs.filter((j) => j.purpose.type === 'campaign-row' && j.purpose.step === 'voiceover');
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.map((j) => shown.state(j).state)).toEqual(steps.map(() => 'step'));
    for (const copy of saved) {
      const show = await owner.cli(['jobs', 'show', copy.jobId]);
      expect(show.out.join('\n')).toMatch(new RegExp(`Saved: +${copy.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    const before = (await entriesOf(owner, jobs)).length;
    const none = await owner.cli(['download', '--missing', '--json']);
    expect(none.code).toBe(EXIT.ok);
    expect(JSON.parse(none.out.join('\n'))).toEqual([]);
    expect((await entriesOf(owner, jobs)).length).toBe(before);
    const hashes = new Map([...copiesByJob(entries)].map(([jobId, entry]) => [jobId, entry.sha256]));

    // Delete a campaign file, modify a batch file, move the --out file.
    unlinkSync(saved[0].path);
    appendFileSync(saved[2].path, Buffer.from('edited'));
    renameSync(saved[4].path, join(dir, 'tts', 'moved.mp3'));
    const lostIds = [saved[0].jobId, saved[2].jobId, saved[4].jobId].sort();

    expect(await owner.call('downloads.check')).toEqual({ checked: 6, lost: 3 });
    const checked = await entriesOf(owner, jobs);
    const after = library(jobs, checked);
    expect(
      jobs
        .filter((j) => after.state(j).state === 'lost')
        .map((j) => j.id)
        .sort(),
    ).toEqual(lostIds);
    expect(after.notSaved.map((j) => j.id).sort()).toEqual(lostIds);
    // The Campaigns page: the deleted row's file is missing, the other saved.
    const [summary] = await owner.call('campaigns.list');
    const view = await owner.call('campaigns.get', summary.id);
    expect(view.rows.map((r) => rowCopy(r, checked))).toEqual(['missing', 'saved']);
    // The batch rows: the modified row's file is changed, the other saved.
    const [batchSummary] = await owner.call('batches.list');
    const batchPage = await owner.call('batches.rows', batchSummary.id, { offset: 0, limit: 500, filter: 'all' });
    expect(
      batchPage.rows.map((r) => copyStateOf(checked.filter((d) => d.jobId === r.jobId && d.origin === 'batch'))),
    ).toEqual(['changed', 'saved']);
    // `download --missing` names exactly those three and fetches them back in their places.
    const back = await owner.cli(['download', '--missing', '--json']);
    expect(back.code, back.err.join('\n')).toBe(EXIT.ok);
    const restored = JSON.parse(back.out.join('\n')) as { jobId: string; state: string; path: string }[];
    expect(restored.map((r) => r.jobId).sort()).toEqual(lostIds);
    expect(restored.every((r) => r.state === 'saved')).toBe(true);
    for (const copy of [saved[0], saved[2], saved[4]]) expect(await hashFile(copy.path)).toBe(hashes.get(copy.jobId));
    expect(readdirSync(join(dir, 'camp')).sort()).toEqual(['1 - Ana.mp4', '2 - Bo.mp4', 'manifest.csv']);
    expect(readdirSync(join(dir, 'batch')).sort()).toEqual(['1-one.mp3', '2-two.mp3', 'manifest.csv']);
    expect(readdirSync(join(dir, 'tts')).sort()).toEqual(['moved.mp3', 'said.mp3']);
    await owner.call('downloads.check');
    const whole = library(jobs, await entriesOf(owner, jobs));
    expect(saved.map((c) => whole.state(jobs.find((j) => j.id === c.jobId) as JobView).state)).toEqual(
      Array(6).fill('saved'),
    );
    // The studio's own archive, caught up at its start, made no copy of anything saved.
    await until('the studio to react to the results that ended while it was closed', () =>
      ledger()
        .filter((j) => j.purpose.type === 'plain')
        .every((j) => j.reactedAt !== null),
    );
    expect((await entriesOf(owner, jobs)).filter((d) => d.origin === 'archive')).toEqual([]);
    await owner.close();
    owner = undefined;

    // The archive run over the same folder: every result has an intact copy, so it writes nothing.
    const downloads = new DownloadsService({
      dataDir: data,
      records: openRecords(data, { log: silent }).downloads,
      createStore: createMemoryHostBase({ dataDir: data }).createStore,
      log: silent,
      job: (id) => ledger().find((j) => j.id === id) as JobRecord,
      jobs: ledger,
      projectName: async () => null,
      resumeQueued: false,
    });
    const archive = new Archive({
      downloads,
      createStore: createMemoryHostBase({ dataDir: data }).createStore,
      jobs: ledger,
      log: silent,
      warn: () => undefined,
    });
    const folders = { videoFolder: join(dir, 'archive', 'v'), audioFolder: join(dir, 'archive', 'a') };
    archive.settings.set({ enabled: true, ...folders, template: '{text|id}' });
    await archive.sync();
    await downloads.manager.whenIdle();
    const recorded = downloads.manager.lookup.ofJobs(ledger().map((j) => j.id)).flat();
    expect(recorded.filter((d) => d.origin === 'archive')).toEqual([]);
    expect(existsSync(join(dir, 'archive'))).toBe(false);
    await downloads.dispose();
  }, 300_000);

  it('an earlier version\u2019s folder keeps what it knew: campaign, batch and command-line copies are adopted, each checked, and an unreadable record is moved aside', async () => {
    expect(saved).toHaveLength(6);
    // As an earlier version left it: the campaign and the batch noted their files in their own records,
    // and the command line kept its own queue; the download queue itself cannot be read.
    const record = await new FolderQueueReader(data).entries('studio');
    const fromCli = record.filter((e) => e.origin === 'cli' && e.state === 'saved');
    mkdirSync(join(data, 'downloads'), { recursive: true });
    writeFileSync(cliQueueFile(data), JSON.stringify({ version: 1, entries: fromCli }));
    // Its queue was a file then: the records database has no rows of it.
    const db = new Database(join(data, DATABASE_FILE));
    db.exec('DELETE FROM downloads');
    db.close();
    writeFileSync(queueFile(data), '{ not json');
    // One campaign file deleted meanwhile: adopted as missing, not as saved.
    unlinkSync(saved[1].path);

    owner = await startOwner({ dataDir: data });
    const entries = await entriesOf(owner, await owner.call('jobs.list'));
    const copies = (jobId: string) =>
      entries
        .filter((e) => e.jobId === jobId)
        .map((e) => [e.savedPath ?? join(e.folder, e.relativeName), e.state, e.origin]);
    expect(copies(saved[0].jobId)).toEqual([[saved[0].path, 'saved', 'campaign']]);
    expect(copies(saved[1].jobId)).toEqual([[saved[1].path, 'missing', 'campaign']]);
    expect(copies(saved[2].jobId)).toEqual([[saved[2].path, 'saved', 'batch']]);
    expect(copies(saved[3].jobId)).toEqual([[saved[3].path, 'saved', 'batch']]);
    expect(copies(saved[4].jobId)).toEqual([[saved[4].path, 'saved', 'cli']]);
    expect(copies(saved[5].jobId)).toEqual([[saved[5].path, 'saved', 'cli']]);
    // The unreadable record is kept beside, never overwritten.
    expect(readdirSync(join(data, 'downloads')).filter((f) => f.startsWith('queue.json.unreadable-'))).toHaveLength(1);
    // Adopted once: a second start adopts nothing more.
    await owner.close();
    owner = await startOwner({ dataDir: data });
    // The archive may meanwhile queue its own copy of the row whose file was deleted (it protects a run's
    // row whose copy is lost), depending on when its start-up sync ran: that is not an adoption.
    const adoptedIds = (list: readonly DownloadView[]) =>
      list
        .filter((e) => e.origin !== 'archive')
        .map((e) => e.id)
        .sort();
    expect(adoptedIds(await entriesOf(owner, await owner.call('jobs.list')))).toEqual(adoptedIds(entries));
  }, 300_000);
});
