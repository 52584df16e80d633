import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AiModel } from '../../../electron/common/api';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';

const dir = mkdtempSync(join(tmpdir(), 'studio-models-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_DATA_DIR: join(dir, 'data') },
    cwd: dir,
  };
  return { io: value, out, err };
}

describe('studio models', () => {
  it('lists only the asked types from the sandbox, as JSON with credits per unit', async () => {
    const run = io();
    expect(await runCli(['models', '--types', '2101', '--json'], run.io)).toBe(0);
    const models = JSON.parse(run.out.join('\n')) as AiModel[];
    expect(models.length).toBeGreaterThan(0);
    expect(new Set(models.map((m) => m.type))).toEqual(new Set([2101]));
    expect(models[0].resolutionList.find((r) => r.value.toLowerCase() === '720p')?.unit_credit).toBe(10);
  }, 120_000);

  it('prints a readable list of every type by default', async () => {
    const run = io();
    expect(await runCli(['models'], run.io)).toBe(0);
    const text = run.out.join('\n');
    for (const type of ['Image to video', 'Text to video', 'Character swap']) expect(text).toContain(type);
    expect(text).toMatch(/credits per unit/);
  }, 120_000);

  it('refuses a wrong type before asking the service', async () => {
    const run = io();
    expect(await runCli(['models', '--types', '1501,99'], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('--types: "99" is not a model type');
  });
});
