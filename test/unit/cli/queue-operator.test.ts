// Issue 67's first done-when: the operator's sequence, played with real processes. A queued campaign of
// 100 rows on two `studio worker` processes, against the sandbox in its own process and a Redis with a
// password: one worker is SIGKILLed, Redis restarted, a third worker started, the starting command
// interrupted half way (Ctrl-C), the web host opened on the folder without the password, the command run
// again, then with --retry-failed. Against an older version the web host resumed the run by itself and
// failed every unfinished row with NOAUTH, --retry-failed paid for 148 rows twice, and the starting
// studio's ledger missed the first attempts' jobs and charges. Checked here: by the sandbox's own records
// no paid job was made twice; every good row is saved once; the ledger lists every job the sandbox made
// for the run, each once, a failed one charged nothing and each figure the service gave as the sandbox
// took it; no row failed for want of the password; and the ledger's total is the balance's fall. It was
// 1,252 for a fall of 1,190 while a voiceover's charge was measured around a create alone only in its own
// worker (a 1-credit voiceover measured at 2 beside another worker's create, and that worker's later ones
// estimated at 2), and the voiceovers adopted from the killed worker were charged nothing (6 or 7 a run).
// The command run again beside the web host is refused, saying why.
// Every wait is on an event (files saved, lines said, an exit); limits are hang guards.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/command';
import { waitsForReview } from '../../../electron/common/campaign/row-review';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { readSandboxRecords } from '../../../electron/emulator/state/store';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { readyMadeResults } from '../emulator/harness';
import { smallTemplate } from '../campaign/campaign-harness';
import { until } from '../../wait';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';
import { cliProcess, exitWithin, whenSaid, type CliProcess } from './queue-processes';
import { webHost, whenPrinted } from './web-host-process';
import { runsIn } from '../rows/folder-runs';

const ROWS = 100;
const CREDITS = 10_000_000;
const PASSWORD = 'operator-secret-3';
/** Hang guards: a step of the sequence takes seconds on a quiet machine, a whole run of the rest a few minutes. */
const STEP_GUARD_MS = 300_000;
const STOP_GUARD_MS = 30_000;
const place = queuePlace('studio-queue-operator-');
const dir = place.dir;
const dataDir = join(dir, 'data');
const outDir = join(dir, 'out');

const started: CliProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

/** A row's problem that says the queue refused the studio (the operator's rows all failed with NOAUTH). */
const forWantOfPassword = (problem: string): boolean => /NOAUTH|WRONGPASS|password|Redis/i.test(problem);

const names = Array.from({ length: ROWS }, (_, i) => `Name${String(i + 1).padStart(3, '0')}`);

/** Videos the workers saved, across their campaign folders. */
const workerFiles = (): number =>
  ['w1', 'w2', 'w3']
    .map((w) => join(dir, `${w}-out`))
    .filter((root) => existsSync(root))
    .flatMap((root) => readdirSync(root).flatMap((c) => readdirSync(join(root, c)).filter((f) => f.endsWith('.mp4'))))
    .length;

/** Videos the starting studio saved in its folder. */
const studioFiles = (): string[] => (existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.mp4')) : []);

describe("the operator's sequence on a queued campaign", () => {
  it('pays for nothing twice, saves every good row once, fails no row for want of the password, and charges what the balance fell by', async () => {
    const { redis, sandbox } = await place.start(
      { password: PASSWORD },
      { credits: CREDITS, failRate: 0.02, jobSeconds: 1, ...readyMadeResults(dir) },
    );
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeLogo(join(dir, 'logo.png'));
    writeFileSync(
      join(dir, 'rows.csv'),
      [
        'First name,company,voice,avatar,logo,email',
        ...names.map((n) => `${n},Acme,Ava,SandboxBen,logo.png,${n.toLowerCase()}@example.com`),
      ].join('\n'),
    );
    // A short lock: the killed worker's rows are found stalled and taken over within seconds, not a minute.
    const workerArgs = { args: ['--concurrency', '6', '--lock-seconds', '5'] };
    const w1 = await place.worker('w1', redis.url, sandbox, workerArgs);
    await place.worker('w2', redis.url, sandbox, workerArgs);

    const args = [
      ...['campaign', 'run', join(dir, 'greeting.json'), join(dir, 'rows.csv'), '--out', outDir],
      ...['--queue', `redis://127.0.0.1:${redis.port}`, '--base-url', sandbox.url, '--data-dir', dataDir, '--yes'],
    ];
    // The queue's password in the environment, never on a command line.
    const env = { STUDIO_API_KEY: sandbox.apiKey, STUDIO_QUEUE_URL: redis.url };
    const campaignRun = (more: string[] = []) => {
      const p = cliProcess([...args, ...more], env);
      started.push(p);
      return p;
    };
    const alive = (p: CliProcess) => {
      if (p.child.exitCode !== null) throw new Error(`it exited (${p.child.exitCode}): ${p.said()}`);
    };

    const first = campaignRun();
    await until('rows made before a worker is killed', () => (alive(first), workerFiles() >= 10), STEP_GUARD_MS);
    w1.kill('SIGKILL');
    await until('rows made before Redis restarts', () => (alive(first), workerFiles() >= 25), STEP_GUARD_MS);
    await redis.restart();
    await place.worker('w3', redis.url, sandbox, workerArgs);
    // Half way, by the rows the studio itself saved: Ctrl-C.
    await until(
      'half the rows saved by the studio',
      () => (alive(first), studioFiles().length >= ROWS / 2),
      STEP_GUARD_MS,
    );
    first.child.kill('SIGINT');
    expect(await exitWithin(first, STOP_GUARD_MS, 'the command to stop on Ctrl-C'), first.said()).toBe(EXIT.paused);
    expect(studioFiles().length).toBeLessThan(ROWS);

    // The web host on the folder, never given the password: it pauses the run, saying what it needs.
    const web = webHost(dataDir, { STUDIO_API_KEY: sandbox.apiKey }, started);
    await whenPrinted(web, 'Avatar Studio is at');
    await whenSaid(web, 'asks for a password this studio does not hold');

    // The same command beside the web host: refused (it names its own service, which the web host does
    // not send to), saying why and what to do, before anything is sent.
    const beside = campaignRun();
    // A whole command's start as well as its refusal: on a busy machine that took over 30 s.
    expect(await exitWithin(beside, STEP_GUARD_MS, 'the command beside the web host to end'), beside.said()).toBe(
      EXIT.unavailable,
    );
    expect(beside.said()).toContain('is in use by the web host');
    expect(beside.said()).toContain('--base-url');
    web.child.kill('SIGTERM');
    expect(await exitWithin(web, STOP_GUARD_MS, 'the web host to stop'), web.said()).toBe(0);
    const paused = (await campaignRuns(runsIn(dataDir, { readOnly: true })).list())[0];
    expect(paused.state).toBe('paused');
    expect(paused.pause?.reason).toBe('queue');
    // Rows the service failed stay failed; none failed for the queue's refusal.
    expect(paused.rows.filter((r) => r.state === 'failed' && r.problems.some(forWantOfPassword))).toEqual([]);

    // The command again, with the password: it takes in what the workers made meanwhile, and goes on.
    const again = campaignRun();
    const againCode = await exitWithin(again, STEP_GUARD_MS, 'the command run again to end');
    expect([EXIT.ok, EXIT.failed], again.said()).toContain(againCode);
    expect(again.said()).toContain('Going on with the campaign');
    // Then --retry-failed: the rows the service failed are made again (only the steps they lack).
    const retry = campaignRun(['--retry-failed']);
    expect([EXIT.ok, EXIT.failed], retry.said()).toContain(await exitWithin(retry, STEP_GUARD_MS, 'the retry to end'));
    for (const p of started) expect(p.said() + p.printed()).not.toContain(PASSWORD);

    // No row failed for want of the password, in the record the studio keeps.
    const [campaign] = await campaignRuns(runsIn(dataDir, { readOnly: true })).list();
    const failed = campaign.rows.filter((r) => r.state === 'failed');
    expect(failed.filter((r) => r.problems.some(forWantOfPassword))).toEqual([]);
    const good = campaign.rows.filter((r) => r.state === 'done');
    expect(good.length + failed.length).toBe(ROWS);

    // Every good row saved once, in the folder and the manifest.
    const manifest = Papa.parse<Record<string, string>>(readFileSync(join(outDir, 'manifest.csv'), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(manifest).toHaveLength(ROWS);
    expect(studioFiles()).toHaveLength(good.length);

    // By the sandbox's own records: no paid job made twice (a step of a row that completed twice).
    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state;
    const jobs = Object.values(state.jobs);
    const completed = jobs.filter((j) => j.status === 3);
    const speech = completed.filter((j) => j.kind === 'tts').map((j) => String(j.request.input_text));
    expect(speech.length - new Set(speech).size).toBe(0);
    const voicesOfVideos = completed
      .filter((j) => j.kind === 'avatar_video')
      .map((j) =>
        [...JSON.stringify(j.request).matchAll(/[\w-]+\.mp3/g)]
          .map((m) => m[0])
          .sort()
          .join(' '),
      );
    expect(voicesOfVideos.length - new Set(voicesOfVideos).size).toBe(0);
    // A video for every good row, and beyond them only for a row caught by the SIGKILL between its
    // video's intent and the answer: it waits for review (the service may have made it and nothing can
    // look it up), so its one video may be there. Never for a row failed for any other reason.
    const reviewing = failed.filter((r) => waitsForReview(r)).length;
    expect(voicesOfVideos.length).toBeGreaterThanOrEqual(good.length);
    expect(voicesOfVideos.length).toBeLessThanOrEqual(good.length + reviewing);

    // The starting studio's ledger lists every job the sandbox made, and charges what the balance fell by.
    // A job whose worker was SIGKILLed between its intent and the service's answer has no id anyone knows
    // (the service lists no jobs): the ledger holds it as of unknown outcome, by its request, charged nothing.
    const ledger = openLedger(dataDir, { readOnly: true }).loadAll();
    const inLedger = new Set(ledger.map((j) => j.remoteId));
    const unknownSteps = ledger.filter((j) => j.phase === 'outcome-unknown' && j.remoteId === null).map(stepOf);
    const unlisted = jobs.filter((j) => !inLedger.has(j._id));
    expect(unlisted.filter((j) => !unknownSteps.includes(stepOf(j))).map((j) => j._id)).toEqual([]);
    expect(unlisted.length).toBeLessThanOrEqual(reviewing);
    // Per job, where the ledger holds a figure the service gave (a video's deduction, a failure's refund),
    // it is what the sandbox took for it.
    const takenBySandbox = new Map(jobs.map((j) => [j._id, j.status === 4 ? 0 : j.cost]));
    const byService = ledger.filter((j) => j.remoteId !== null && j.chargeSource === 'service');
    expect(byService.length).toBeGreaterThanOrEqual(good.length);
    const wrong = byService
      .filter((j) => j.chargedCredits !== takenBySandbox.get(j.remoteId ?? ''))
      .map((j) => ({
        ...pick(j, ['remoteId', 'kind', 'phase', 'chargedCredits']),
        taken: takenBySandbox.get(j.remoteId ?? ''),
      }));
    expect(wrong).toEqual([]);
    // A job the service failed was refunded: the ledger charges it nothing (it kept the estimate before).
    const failedJobs = ledger.filter((j) => j.phase === 'failed' && j.remoteId !== null);
    expect(failedJobs.length).toBeGreaterThan(0);
    expect(
      failedJobs.filter((j) => j.chargedCredits !== 0).map((j) => pick(j, ['kind', 'chargedCredits', 'chargeSource'])),
    ).toEqual([]);
    const remoteIds = ledger.flatMap((j) => (j.remoteId === null ? [] : [j.remoteId]));
    expect(remoteIds.length - new Set(remoteIds).size).toBe(0);

    // The ledger charges what the balance fell by. A voiceover's price is not published and the service's
    // answer carries no charge: it is charged the balance's fall around a create that went alone on the
    // whole account (the workers' shared record of creates), or an estimate from such falls, adopted ones too.
    // Less what the jobs of unknown outcome that the service did make took.
    const fall =
      CREDITS -
      Object.values(state.accounts).reduce((sum, a) => sum + a.credits, 0) -
      unlisted.reduce((sum, j) => sum + (j.status === 4 ? 0 : j.cost), 0);
    const charged = Math.round(ledger.reduce((sum, j) => sum + (j.chargedCredits ?? 0), 0) * 100) / 100;
    const bySource = new Map<string, number>();
    for (const j of ledger) {
      const key = `${j.kind} ${j.phase} ${j.chargeSource ?? 'no source'} ${j.chargedCredits ?? '-'}`;
      bySource.set(key, (bySource.get(key) ?? 0) + 1);
    }
    const told = [...bySource].map(([key, n]) => `${key}: ${n}`).sort();
    expect(charged, `charged ${charged} for a fall of ${fall} (${told.join('; ')})`).toBe(fall);
  }, 1_200_000);
});

/** A step by what its request says: a voiceover's words, or the voiceovers a video speaks (sandbox or ledger). */
const stepOf = (job: { request: unknown }): string =>
  [
    String((job.request as { input_text?: unknown } | null)?.input_text ?? ''),
    ...[...JSON.stringify(job.request).matchAll(/[\w-]+\.mp3/g)].map((m) => m[0]).sort(),
  ].join(' ');

const pick = <T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>;
