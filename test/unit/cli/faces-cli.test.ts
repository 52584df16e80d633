import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { sharedCacheDir } from '../../../electron/emulator';

const dir = mkdtempSync(join(tmpdir(), 'studio-faces-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: join(dir, 'data') }, cwd: dir };
  return { io: value, out, err };
}

/** The sandbox's own portrait (its face is known), found in the shared sample cache the CLI's sandbox fills. */
function samplePortrait(): string | undefined {
  const found = readdirSync(sharedCacheDir(), { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith('sandbox-face.png'));
  return found && join(sharedCacheDir(), found);
}

describe('studio faces detect', () => {
  it('sends a local image inline and prints its face box and landmarks', async () => {
    await runCli(['models', '--json'], io().io); // starts the CLI's sandbox once, which fills the sample cache
    const portrait = samplePortrait();
    expect(portrait).toBeDefined();
    const run = io();
    expect(await runCli(['faces', 'detect', portrait ?? '', '--single-face'], run.io)).toBe(0);
    expect(run.out.join('\n')).toContain('face 1: box x 136, y 100, 240×240; landmarks 214,196:298,196:256,234:256,274');
  }, 120_000);

  it('refuses a frame count over 24 before asking the service', async () => {
    const run = io();
    expect(await runCli(['faces', 'detect', 'http://127.0.0.1:9/a.mp4', '--frames', '25'], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('--frames must be a whole number from 1 to 24');
  });
});
