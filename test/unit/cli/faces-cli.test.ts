import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { sharedCacheDir } from '../../../electron/emulator';
import { readPortRecord } from '../../../electron/emulator/built-in';

const dir = mkdtempSync(join(tmpdir(), 'studio-faces-cli-'));
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

/** The sandbox's own portrait (its face is known), found in the shared sample cache the CLI's sandbox fills. */
function samplePortrait(): string | undefined {
  const found = readdirSync(sharedCacheDir(), { recursive: true, encoding: 'utf8' }).find((p) =>
    p.endsWith('sandbox-face.png'),
  );
  return found && join(sharedCacheDir(), found);
}

describe('studio faces detect', () => {
  it('sends a local image inline and prints its face box and landmarks', async () => {
    await runCli(['models', '--json'], io().io); // starts the CLI's sandbox once, which fills the sample cache
    const portrait = samplePortrait();
    expect(portrait).toBeDefined();
    const run = io();
    expect(await runCli(['faces', 'detect', portrait ?? '', '--single-face'], run.io)).toBe(0);
    expect(run.out.join('\n')).toContain(
      'face 1: box x 136, y 100, 240×240; landmarks 214,196:298,196:256,234:256,274',
    );
  }, 120_000);

  it('refuses a frame count over 24 before asking the service', async () => {
    const run = io();
    expect(await runCli(['faces', 'detect', 'http://127.0.0.1:9/a.mp4', '--frames', '25'], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('--frames must be a whole number from 1 to 24');
  });
});

/** The address the data folder's sandbox keeps across runs (the CLI starts it on that port each time). */
function sandboxUrl(): string {
  const record = readPortRecord(join(dir, 'data', 'sandbox'));
  if (!record) throw new Error('the CLI sandbox has not run yet');
  return `http://127.0.0.1:${record.port}`;
}

describe('studio faces analyze', () => {
  it('merges one person across pictures and prints the persons left to right', async () => {
    await runCli(['models', '--json'], io().io);
    const base = sandboxUrl();
    const run = io();
    const pictures = [
      `${base}/sandbox/sandbox-group.png`,
      `${base}/sandbox/avatar-SandboxAnna.jpg`,
      `${base}/sandbox/sandbox-group.png`,
    ];
    expect(await runCli(['faces', 'analyze', ...pictures, '--timestamps', '0,1.5,3', '--json'], run.io)).toBe(0);
    const result = JSON.parse(run.out.join('\n')) as {
      frameCount: number;
      persons: Array<{ person_id: string; appearances: Array<{ frame_idx: number }> }>;
    };
    expect(result.frameCount).toBe(3);
    expect(result.persons.map((p) => [p.person_id, p.appearances.map((a) => a.frame_idx)])).toEqual([
      ['person_0', [0, 2]],
      ['person_1', [0, 1, 2]],
    ]);
    const readable = io();
    expect(await runCli(['faces', 'analyze', ...pictures], readable.io)).toBe(0);
    expect(readable.out[0]).toBe('2 person(s) in 3 picture(s), left to right:');
    expect(readable.out[2]).toMatch(
      /^ {2}person_1: confidence \d\.\d\d, seen 0\.00–2\.00 s in picture\(s\) 1, 2, 3; crop http/,
    );
  }, 120_000);

  it('refuses a timestamp count that does not match the pictures, and a non-link, before asking the service', async () => {
    const run = io();
    expect(
      await runCli(
        ['faces', 'analyze', 'https://a.example/1.png', 'https://a.example/2.png', '--timestamps', '0'],
        run.io,
      ),
    ).toBe(2);
    expect(run.err.join('\n')).toContain('--timestamps needs one time per picture: 2 pictures, 1 times');
    const local = io();
    expect(await runCli(['faces', 'analyze', 'frame.png'], local.io)).toBe(2);
    expect(local.err[0]).toContain('"frame.png" is not an http(s) link');
  });
});
