import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';

let emulator: RunningEmulator;
let dataDir: string;

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: process.cwd() };
  return { io: value, out, err };
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 1,
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'studio-voices-cli-'));
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('studio voices list', () => {
  it('lists the service voices as JSON and as lines, filtered by --from', async () => {
    const env = { STUDIO_API_KEY: emulator.apiKey };
    const json = io(env);
    expect(await runCli(['voices', 'list', '--json', '--base-url', emulator.url, '--data-dir', dataDir], json.io)).toBe(
      0,
    );
    const voices = JSON.parse(json.out.join('\n')) as { voice_id: string; from: number }[];
    expect(voices.map((v) => v.voice_id)).toContain('sandbox_ava');
    expect(voices.every((v) => v.from === 3)).toBe(true);

    const mine = io(env);
    expect(
      await runCli(['voices', 'list', '--from', '4', '--base-url', emulator.url, '--data-dir', dataDir], mine.io),
    ).toBe(0);
    expect(mine.out).toEqual([]);
    expect(mine.err.join('\n')).toMatch(/^0 voices on /);

    const lines = io(env);
    expect(
      await runCli(['voices', 'list', '--from', '3', '--base-url', emulator.url, '--data-dir', dataDir], lines.io),
    ).toBe(0);
    expect(lines.out).toHaveLength(voices.length);
    expect(lines.out[0]).toMatch(/^sandbox_\w+\t\S+\tofficial\t/);
  });

  it('refuses a bad --from with a reason', async () => {
    const bad = io();
    expect(await runCli(['voices', 'list', '--from', '5', '--data-dir', dataDir], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/argument '5' is invalid. Allowed choices are 3, 4/);
  });
});
