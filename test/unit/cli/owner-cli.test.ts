import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { builtInSandboxStarter } from '../../../electron/emulator/built-in';
import type { JobView } from '../../../electron/common/bridge';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { composeHost, type ComposedHost } from '../../../electron/services/host/compose';
import { LOCK_FILE, lockDataFolder } from '../../../electron/services/host/data-folder-lock';
import { openOwnerChannel } from '../../../electron/services/host/owner-channel';
import { readOwnerRecord } from '../../../electron/services/host/owner-record';
import { reachOwner } from '../../../electron/services/host/owner-client';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { startOwner, type OwnerFixture } from './owner-fixture';
import { until } from '../../wait';

let owner: OwnerFixture;
let dataDir: string;
let studio: ComposedHost;

beforeAll(async () => {
  owner = await startOwner();
  ({ dataDir, studio } = owner);
}, 120_000);
afterAll(() => owner?.close());

const cli = (args: string[], answer?: string) => owner.cli(args, { answer });
const ownerJobs = (): Promise<JobView[]> => owner.call('jobs.list');

describe('studio commands beside the studio that owns the data folder', () => {
  it("runs two tts commands at once through the owner: both complete, both are the owner's jobs", async () => {
    const [first, second] = await Promise.all([
      cli([
        'tts',
        '--yes',
        '--voice',
        'sandbox_ava',
        '--text',
        'First of two at once.',
        '--out',
        join(dataDir, 'first.mp3'),
      ]),
      cli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Second of two at once.', '--json']),
    ]);
    expect(first.code, first.err.join('\n')).toBe(EXIT.ok);
    expect(second.code, second.err.join('\n')).toBe(EXIT.ok);
    expect(first.err.join('\n')).toMatch(/Running through the web host that has the data folder open \(process \d+\)/);
    expect(first.err.join('\n')).toMatch(/Completed/);
    expect(first.out.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/\w+\.mp3$/);
    // --out saves the result here, as a local run does.
    expect(statSync(join(dataDir, 'first.mp3')).size).toBeGreaterThan(1000);
    // --json prints the finished job as a local run does.
    const json = JSON.parse(second.out.join('\n')) as JobView & { savedTo: null };
    expect(json).toMatchObject({ kind: 'tts', phase: 'completed', savedTo: null });
    const jobs = await ownerJobs();
    expect(jobs.filter((j) => /at once/.test(j.summary)).map((j) => j.phase)).toEqual(['completed', 'completed']);
    expect(jobs.find((j) => j.id === json.id)?.resultUrl).toBe(json.resultUrl);
    // The owner still holds the folder; the commands never took it.
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).kind).toBe('web host');
  }, 120_000);

  it('still asks before paying: no --yes and "no" at the question sends nothing', async () => {
    const before = (await ownerJobs()).length;
    const result = await cli(['tts', '--voice', 'sandbox_ava', '--text', 'Not agreed to.'], 'n');
    expect(result.code).toBe(EXIT.refused);
    expect(result.err.join('\n')).toMatch(/Send it .*\[y\/N\]/);
    expect((await ownerJobs()).length).toBe(before);
  });

  it('lip syncs an avatar clip from `avatars list` to an earlier tts result through the owner', async () => {
    const avatars = await cli(['avatars', 'list', '--json']);
    expect(avatars.code, avatars.err.join('\n')).toBe(EXIT.ok);
    const clip = (JSON.parse(avatars.out.join('\n')) as { url: string }[])[0].url;
    const speech = await cli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Words for the lips.']);
    expect(speech.code, speech.err.join('\n')).toBe(EXIT.ok);
    const result = await cli(['lipsync', '--yes', '--video', clip, '--audio', speech.out.at(-1) as string]);
    expect(result.code, result.err.join('\n')).toBe(EXIT.ok);
    expect(result.err.join('\n')).toMatch(/video: .* s/);
    const job = (await ownerJobs()).find((j) => j.kind === 'lipsync');
    expect(job?.phase).toBe('completed');
    expect(result.out.at(-1)).toBe(job?.resultUrl);
    // A clone of that speech's voice goes the same way.
    const clone = await cli([
      'clone',
      '--yes',
      '--sample',
      speech.out.at(-1) as string,
      '--text',
      'In the same voice.',
    ]);
    expect(clone.code, clone.err.join('\n')).toBe(EXIT.ok);
    expect((await ownerJobs()).find((j) => j.kind === 'voice-clone')?.phase).toBe('completed');
    // A character swap too: quoted by the owner, its price printed here, sent with --yes.
    const face = new URL('/sandbox/sandbox-face.png', clip).href;
    const swap = await cli([
      'character-swap',
      '--yes',
      '--image',
      face,
      '--video',
      clip,
      '--duration',
      '5',
      '--resolution',
      '480p',
    ]);
    expect(swap.code, swap.err.join('\n')).toBe(EXIT.ok);
    expect(swap.err.join('\n')).toMatch(/Running through the web host[\s\S]*Cost: 5 credits/);
    expect((await ownerJobs()).find((j) => j.kind === 'character-swap')?.phase).toBe('completed');
  }, 120_000);

  it('opens, updates and closes a live session through the owner, which lists it at once; closes one it never recorded on the connection', async () => {
    const avatars = await cli(['avatars', 'list', '--json']);
    expect(avatars.code, avatars.out.join('\n')).toBe(EXIT.ok);
    const face = new URL('/sandbox/sandbox-face.png', (JSON.parse(avatars.out.join('\n')) as { url: string }[])[0].url)
      .href;
    const created = await cli(['live', 'create', '--yes', '--face', face, '--json']);
    expect(created.code, created.err.join('\n')).toBe(EXIT.ok);
    const session = JSON.parse(created.out.join('\n')) as { id: string; origin: string };
    // Opened by the owner (its own origin), not by this command.
    expect((await owner.call('live.sessions')).find((s) => s.id === session.id)?.origin).toBe('studio');
    const updated = await cli(['live', 'update', session.id, '--face', face, face]);
    expect(updated.out[0]).toBe(`session ${session.id}: 2 face(s)`);
    const closed = await cli(['live', 'close', session.id]);
    expect(closed.code, closed.err.join('\n')).toBe(EXIT.ok);
    expect((await owner.call('live.sessions')).map((s) => s.id)).not.toContain(session.id);
    // Closed already and no longer the owner's: the connection itself is asked, and says so.
    const again = await cli(['live', 'close', session.id]);
    expect(again.code).toBe(EXIT.failed);
    expect(again.err.join('\n')).toMatch(/code 121[69]/);
  }, 120_000);

  it('checks placement through the owner: the plan and price first, nothing sent without --yes', async () => {
    const before = (await ownerJobs()).length;
    const planned = await cli(['check-placement']);
    expect(planned.code).toBe(EXIT.refused);
    expect(planned.err.join('\n')).toMatch(
      /Running through the web host[\s\S]*Check placement on "Sandbox"[\s\S]*Nothing was sent/,
    );
    expect((await ownerJobs()).length).toBe(before);
  });

  it("leaves the owner's engine the last word on money: a create sent without a confirmation is refused", async () => {
    const before = (await ownerJobs()).length;
    const link = await reachOwner(dataDir);
    // A client outside TypeScript (the type requires a confirmation): refused by the host all the same.
    const unconfirmed = link?.call('jobs.submit', {
      kind: 'tts',
      body: { input_text: 'Sent by a client that skipped the question.', voice_id: 'sandbox_ava' },
    } as never);
    await expect(unconfirmed).rejects.toThrow(/Invalid argument 1 \(confirmation\)/);
    link?.close();
    expect((await ownerJobs()).length).toBe(before);
  });

  it('refuses, before sending, a command line whose connection is not the one the owner sends to', async () => {
    const before = (await ownerJobs()).length;
    const result = await cli([
      'tts',
      '--yes',
      '--connection',
      'Elsewhere',
      '--voice',
      'sandbox_ava',
      '--text',
      'Wrong place.',
      '--json',
    ]);
    expect(result.code).toBe(EXIT.refused);
    expect(JSON.parse(result.out.join('\n')).error.message).toMatch(/sends new work to "Sandbox", not "Elsewhere"/);
    expect((await ownerJobs()).length).toBe(before);
  });

  it('runs a tts through a command-line run that owns another folder, while that run waits at its price question', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'studio-cli-owner-'));
    let answer: (text: string) => void = () => {};
    const question = new Promise<string>((resolve) => (answer = resolve));
    const lines = { out: [] as string[], err: [] as string[] };
    const io: CliIo = {
      out: (t) => lines.out.push(t),
      err: (t) => lines.err.push(t),
      env: {},
      cwd: process.cwd(),
      stdin: () => question,
    };
    const owning = runCli(['tts', '--voice', 'sandbox_ava', '--text', 'The long run.', '--data-dir', folder], io);
    await until('the command line to own the data folder', () => readOwnerRecord(folder)?.kind === 'command line');
    const beside = await runCli(
      ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Beside the long run.', '--data-dir', folder],
      { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: process.cwd() },
    );
    expect(beside, lines.err.join('\n')).toBe(EXIT.ok);
    expect(lines.err.join('\n')).toMatch(/Running through the command line that has the data folder open/);
    answer('y');
    expect(await owning, lines.err.join('\n')).toBe(EXIT.ok);
    const ledger = openLedger(folder, { log: studio.base.log }).loadAll();
    expect(ledger.map((j) => j.phase)).toEqual(['completed', 'completed']);
    // The run gave the folder back: no lock, no record.
    expect(existsSync(join(folder, LOCK_FILE))).toBe(false);
    expect(readOwnerRecord(folder)).toBeNull();
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);

  it('ends with "unavailable" and the reason, not a silent exit, when the owner quits while the job runs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'studio-owner-quits-'));
    const held = lockDataFolder(folder, 'web host');
    // A long sandbox job, so the owner is sure to quit before it ends.
    const other = composeHost({
      host: 'web',
      appVersion: '0.0.0',
      dataDir: folder,
      createVault: () => new EnvVault({}),
      platform: {},
      createStoreFactory: createConfStoreFactory,
      startSandbox: builtInSandboxStarter(folder, { jobSeconds: 60 }),
    });
    const otherChannel = await openOwnerChannel({
      dataDir: folder,
      kind: 'web host',
      dispatch: other.dispatch,
      subscribe: other.subscribe,
      log: other.base.log,
    });
    const err: string[] = [];
    const io: CliIo = {
      out: () => {},
      err: (text) => {
        err.push(text);
        if (text.startsWith('Sent as job')) void otherChannel.close();
      },
      env: {},
      cwd: process.cwd(),
    };
    const code = await runCli(
      ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Cut short.', '--data-dir', folder],
      io,
    );
    expect(code).toBe(EXIT.unavailable);
    expect(err.join('\n')).toMatch(
      /closed the connection \(it may have quit\)\. A job already sent stays in its Library/,
    );
    await other.dispose();
    held.release();
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);
});
