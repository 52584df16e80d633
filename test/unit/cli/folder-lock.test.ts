import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import type { RunningEmulator } from '../../../electron/emulator';
import { LOCK_FILE } from '../../../electron/services/host/data-folder-lock';
import { smallTemplate } from '../campaign/campaign-harness';
import { campaignRuns } from '../../../electron/services/campaign/campaign-rows';
import { runsIn } from '../rows/folder-runs';

const running: RunningEmulator[] = [];
afterAll(async () => {
  for (const sandbox of running) await sandbox.close();
});

function cli(dataDir: string, args: string[]) {
  const lines = { out: [] as string[], err: [] as string[] };
  const io: CliIo = { out: (t) => lines.out.push(t), err: (t) => lines.err.push(t), env: {}, cwd: process.cwd() };
  return runCli([...args, '--data-dir', dataDir], io).then((code) => ({ code, ...lines }));
}

/** A studio (web host) that is running on the folder: its lock (process 1 is always alive) and its sandbox. */
async function heldByWebHost(): Promise<{ dataDir: string; sandbox: RunningEmulator }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-cli-lock-'));
  const sandbox = await startBuiltInSandbox(dataDir);
  running.push(sandbox);
  writeFileSync(
    join(dataDir, LOCK_FILE),
    JSON.stringify({ pid: 1, host: hostname(), kind: 'web host', startedAt: Date.now() }),
  );
  return { dataDir, sandbox };
}

describe('the command line beside a running studio', () => {
  it('refuses a command that would write, naming who holds the folder, and creates nothing', async () => {
    const { dataDir } = await heldByWebHost();
    const result = await cli(dataDir, ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Hello there']);
    expect(result.code).toBe(EXIT.unavailable);
    expect(result.err.join('\n')).toMatch(/in use by the web host \(process 1 .*does not run beside it/);
    expect(existsSync(join(dataDir, 'jobs')) ? readdirSync(join(dataDir, 'jobs')) : []).toEqual([]);
  });

  it('refuses campaign run while the studio is open, so the rows are not sent by both, and checks the rows beside it', async () => {
    const { dataDir } = await heldByWebHost();
    const inputs = mkdtempSync(join(tmpdir(), 'studio-cli-lock-campaign-'));
    writeFileSync(join(inputs, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeFileSync(
      join(inputs, 'prospects.csv'),
      'First name,company,voice,avatar,logo\nAna,Acme,Ava,SandboxBen,https://cdn.example/logo.png\n',
    );
    const out = join(inputs, 'out');
    const run = await cli(dataDir, [
      'campaign',
      'run',
      join(inputs, 'greeting.json'),
      join(inputs, 'prospects.csv'),
      '--out',
      out,
      '--yes',
    ]);
    expect(run.code).toBe(EXIT.unavailable);
    expect(run.err.join('\n')).toMatch(/in use by the web host \(process 1 .*does not run beside it; .*campaign check/);
    expect(existsSync(join(dataDir, 'jobs')) ? readdirSync(join(dataDir, 'jobs')) : []).toEqual([]);
    // No campaign recorded: the folder's runs (a database opened only to read, none if it has none yet).
    expect(await campaignRuns(runsIn(dataDir, { readOnly: true })).list()).toEqual([]);
    expect(existsSync(out)).toBe(false);
    // Checking sends nothing, so it runs beside the studio (through its sandbox's catalogue).
    const check = await cli(dataDir, [
      'campaign',
      'check',
      join(inputs, 'greeting.json'),
      join(inputs, 'prospects.csv'),
      '--json',
    ]);
    expect(JSON.parse(check.out.join('\n')).rows).toHaveLength(1);
  });

  it("reads through the running studio's own sandbox instead of starting a second one on its records", async () => {
    const { dataDir, sandbox } = await heldByWebHost();
    const portRecord = readFileSync(join(dataDir, 'sandbox', 'port.json'), 'utf8');
    const result = await cli(dataDir, ['models', '--json']);
    expect(result.code, result.err.join('\n')).toBe(0);
    expect(JSON.parse(result.out.join('\n')).length).toBeGreaterThan(0);
    // A second sandbox would have found the port taken, moved to another and rewritten the record.
    expect(readFileSync(join(dataDir, 'sandbox', 'port.json'), 'utf8')).toBe(portRecord);
    expect(new URL(sandbox.url).port).toBe(String(JSON.parse(portRecord).port));
    const listed = await cli(dataDir, ['jobs', 'list']);
    expect(listed.code).toBe(0);
  });

  it('takes the folder itself while a command writes, and gives it back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-cli-lock-'));
    // The lock is read when the command says it sent the job and waits for it (it holds the folder
    // then), not by sampling on a timer that a quick enough command could slip between.
    const lockSeen: unknown[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (t) => {
        err.push(t);
        if (t.startsWith('Sent as job'))
          lockSeen.push(
            existsSync(join(dataDir, LOCK_FILE))
              ? JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).kind
              : 'no lock',
          );
      },
      env: {},
      cwd: process.cwd(),
    };
    const code = await runCli(
      ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Taken and given back.', '--data-dir', dataDir],
      io,
    );
    expect(code, err.join('\n')).toBe(0);
    expect(lockSeen).toEqual(['command line']);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 120_000);
});
