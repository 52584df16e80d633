import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { readPortRecord, startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { SANDBOX_CONNECTION_ID } from '../../../electron/common/bridge/connections';
import type { AppSettingsPatch } from '../../../electron/common/bridge';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { createSettingsDomain } from '../../../electron/services/system/settings-domain';
import type { Logger } from '../../../electron/services/host/types';
import { readOwnerRecord } from '../../../electron/services/host/owner-record';
import { readSandboxAccessKey } from '../../../electron/emulator/state/access-key';
import { until, whenDefined } from '../../wait';
import { startOwner, type OwnerFixture } from './owner-fixture';

// A limit of 0 credits a day on the sandbox: any paid create passes it (tts at the sandbox's published
// 1 credit, and a live session's unknown price may go only while some of the day's limit is left).
const LIMIT: AppSettingsPatch = { spending: { skipQuestionUnder: null, dailyLimits: { [SANDBOX_CONNECTION_ID]: 0 } } };
const TTS = ['tts', '--yes', '--voice', 'sandbox_ava', '--text', "Past the day's limit."];
/** A live face swap session (paid while open) on the sandbox portrait the folder's sandbox serves. */
const LIVE = (sandboxUrl: string) => ['live', 'create', '--yes', '--face', `${sandboxUrl}/sandbox/sandbox-face.png`];

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** How many jobs and live sessions the sandbox of a data folder was asked to create (its records survive its process). */
async function sandboxCreates(baseUrl: string, apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/__sandbox/status`, { headers: { 'x-api-key': apiKey } });
  const { data } = (await response.json()) as { data: { jobs: { total: number }; live: unknown[] } };
  return data.jobs.total + data.live.length;
}

function expectRefusedByLimit(result: { code: number; err: string[] }): void {
  const said = result.err.join('\n');
  expect(result.code, said).toBe(EXIT.refused);
  expect(said).toMatch(/Today's spending limit for "Sandbox" is 0 credits/);
  expect(said).toMatch(/Nothing was sent/);
  expect(said).not.toMatch(/Sent as job/);
}

/** A fresh data folder whose Settings hold LIMIT, saved as the Settings page saves it (the settings domain's update). */
async function limitedFolder(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-limit-cli-'));
  folders.push(dataDir);
  const createStore = createConfStoreFactory(dataDir, { log: silent, notify: () => undefined });
  await createSettingsDomain({ createStore, emit: () => undefined, log: silent }).handlers['settings.update'](LIMIT);
  return dataDir;
}

/** Runs a `studio` command on the folder; `stdin` is what its price question reads. */
const cliIn =
  (dataDir: string) =>
  async (args: string[], stdin?: () => Promise<string>): Promise<{ code: number; err: string[] }> => {
    const err: string[] = [];
    const io: CliIo = { out: () => undefined, err: (t) => err.push(t), env: {}, cwd: process.cwd(), stdin };
    return { code: await runCli([...args, '--data-dir', dataDir], io), err };
  };

const folders: string[] = [];

// Issue 49's test: the limit is a rule of the create path every host composes (composeHost), so a paid
// command line past it is refused, named and sends nothing whoever performs it.
describe('a daily spending limit set in Settings holds for the command line', () => {
  let owner: OwnerFixture | undefined;
  afterEach(async () => {
    await owner?.close();
    owner = undefined;
  });
  afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('with a studio open on the data folder: the owner refuses a paid tts and a live session, and nothing is created', async () => {
    owner = await startOwner();
    await owner.call('settings.update', LIMIT);
    const sandbox = await owner.studio.base.sandbox();
    const before = await sandboxCreates(sandbox.baseUrl, sandbox.apiKey);

    const result = await owner.cli(TTS);

    expectRefusedByLimit(result);
    expect(result.err.join('\n')).toMatch(/Running through the web host/);
    expectRefusedByLimit(await owner.cli(LIVE(sandbox.baseUrl)));
    expect(await sandboxCreates(sandbox.baseUrl, sandbox.apiKey)).toBe(before);
    expect(await owner.call('jobs.list')).toEqual([]);
    expect(await owner.call('live.sessions')).toEqual([]);
  }, 120_000);

  it("with no studio open: the command line's own run refuses a paid tts and a live session, and nothing is created", async () => {
    const dataDir = await limitedFolder();
    const cli = cliIn(dataDir);

    expectRefusedByLimit(await cli(TTS));
    // That run started the folder's sandbox, which keeps its port: the face's link is on it.
    const port = readPortRecord(join(dataDir, 'sandbox'))?.port;
    expectRefusedByLimit(await cli(LIVE(`http://127.0.0.1:${port}`)));
    expect(openLedger(dataDir).loadAll()).toEqual([]);
    expect(
      existsSync(join(dataDir, 'live-sessions.json')) ? readFileSync(join(dataDir, 'live-sessions.json'), 'utf8') : '',
    ).not.toMatch(/"faces"/);
    // The run has ended and stopped its sandbox; the folder's sandbox, started again, holds its records.
    const sandbox = await startBuiltInSandbox(dataDir);
    try {
      expect(await sandboxCreates(sandbox.url, sandbox.apiKey)).toBe(0);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
  it('with a command-line run owning the data folder: that run refuses a paid tts sent through it, and nothing is created', async () => {
    const dataDir = await limitedFolder();
    const cli = cliIn(dataDir);
    // A run that owns the folder while it waits at its own price question (its sandbox started, its channel open).
    let answer: (text: string) => void = () => undefined;
    const question = new Promise<string>((resolve) => (answer = resolve));
    const owning = cli(['tts', '--voice', 'sandbox_ava', '--text', 'The owning run.'], () => question);
    await until('the command line to own the data folder', () => readOwnerRecord(dataDir)?.kind === 'command line');
    const port = await whenDefined(
      'the owning run to start its sandbox',
      () => readPortRecord(join(dataDir, 'sandbox'))?.port,
    );
    const key = await whenDefined('the sandbox key', () => readSandboxAccessKey(join(dataDir, 'sandbox'))?.apiKey);
    const sandboxUrl = `http://127.0.0.1:${port}`;
    const before = await sandboxCreates(sandboxUrl, key);
    try {
      const result = await cli(TTS);
      expectRefusedByLimit(result);
      expect(result.err.join('\n')).toMatch(/Running through the command line that has the data folder open/);
      expect(await sandboxCreates(sandboxUrl, key)).toBe(before);
    } finally {
      answer('n');
    }
    expect((await owning).code).toBe(EXIT.refused);
    expect(openLedger(dataDir).loadAll()).toEqual([]);
  }, 120_000);
});
