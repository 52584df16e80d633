import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { jobBar } from '../../../electron/cli/commands/tool-job';
import { makeImage, makeTone, makeVideo, probe } from '../../fixtures/composition/make-media';
import { openLedger } from '../../../electron/services/records/open-ledger';

const dir = mkdtempSync(join(tmpdir(), 'studio-tools-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'data');

function io(answer?: string, dataDir = data) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_DATA_DIR: dataDir },
    cwd: dir,
    ...(answer !== undefined && { stdin: async () => answer }),
  };
  return { io: value, out, err };
}

const jobsWritten = () => openLedger(data).loadAll().length;

const clip = makeVideo(join(dir, 'clip.mp4'), {
  colour: 'testsrc2',
  width: 320,
  height: 240,
  seconds: 3,
  withAudio: true,
});
const fast = makeVideo(join(dir, 'fast.mp4'), {
  colour: 'testsrc2',
  width: 320,
  height: 240,
  seconds: 1,
  fps: 90,
  withAudio: true,
});
const voice = makeTone(join(dir, 'voice.wav'), { seconds: 3 });
const portrait = makeImage(join(dir, 'face.png'), { colour: 'orange', width: 256, height: 256 });

describe('studio lipsync', () => {
  it('takes links from `avatars list` and an earlier tts, starting the sandbox that serves them before measuring', async () => {
    // A data folder of its own: the other tests count the jobs in theirs.
    const fresh = join(dir, 'fresh-data');
    const listed = io(undefined, fresh);
    expect(await runCli(['avatars', 'list', '--from', '2', '--json'], listed.io)).toBe(0);
    const clipUrl = (JSON.parse(listed.out.join('\n')) as { url?: string }[])
      .map((a) => a.url ?? '')
      .find((u) => u.endsWith('.mp4'));
    expect(clipUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const spoken = io(undefined, fresh);
    expect(
      await runCli(
        ['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Links from the sandbox keep working.', '--json'],
        spoken.io,
      ),
    ).toBe(0);
    const audioUrl = (JSON.parse(spoken.out.join('\n')) as { resultUrl: string }).resultUrl;
    // Each command above started the sandbox and stopped it on exit: nothing serves these links now.
    const run = io(undefined, fresh);
    const code = await runCli(
      ['lipsync', '--yes', '--video', clipUrl as string, '--audio', audioUrl, '--json'],
      run.io,
    );
    expect(run.err.join('\n')).not.toContain('ECONNREFUSED');
    expect(code, run.err.join('\n') + run.out.join('\n')).toBe(0);
    expect(JSON.parse(run.out.join('\n'))).toMatchObject({ kind: 'lipsync', phase: 'completed' });
  }, 180_000);

  it('refuses a 90 fps video with the reason and 1210, creating no job', async () => {
    const run = io();
    expect(await runCli(['lipsync', '--yes', '--video', fast, '--audio', voice], run.io)).toBe(3);
    const said = run.err.join('\n');
    expect(said).toContain('video: 1.0 s · 320×240 · 90 fps');
    expect(said).toMatch(
      /Refused: The video runs at 90 fps; lip sync takes at most 60 fps \(the service would refuse it with 1210\)/,
    );
    expect(jobsWritten()).toBe(0);
  }, 120_000);

  it('uploads local files, follows the job and saves the result with --out', async () => {
    const run = io();
    const out = join(dir, 'synced.mp4');
    expect(await runCli(['lipsync', '--yes', '--video', clip, '--audio', voice, '--out', out, '--json'], run.io)).toBe(
      0,
    );
    const job = JSON.parse(run.out.join('\n')) as {
      kind: string;
      phase: string;
      savedTo: string;
      request: { video_url: string };
    };
    expect(job).toMatchObject({ kind: 'lipsync', phase: 'completed', savedTo: out });
    expect(job.request.video_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(probe(out)).toMatchObject({ width: 320, height: 240 });
    expect(jobsWritten()).toBe(1);
  }, 120_000);

  it('needs both inputs', async () => {
    const run = io();
    expect(await runCli(['lipsync', '--yes', '--video', clip], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain("required option '--audio <URL>' not specified");
  });
});

describe('studio character-swap', () => {
  it('prints the cost per started 5 s and sends nothing when the answer is no', async () => {
    const before = jobsWritten();
    const run = io('n\n');
    expect(await runCli(['character-swap', '--image', portrait, '--video', clip, '--duration', '12'], run.io)).toBe(3);
    const said = run.err.join('\n');
    expect(said).toContain('Cost: 30 credits (12 s at 720p: 3 started 5 s × 10 credits = 30 credits).');
    expect(said).toContain('Send it for 30 credits? [y/N]');
    expect(said).toContain('Not sent.');
    expect(jobsWritten()).toBe(before);
  }, 120_000);

  it('with --yes sends the confirmed request through the engine and saves the result with --out', async () => {
    const run = io();
    const out = join(dir, 'swapped.mp4');
    const code = await runCli(
      [
        'character-swap',
        '--image',
        portrait,
        '--video',
        clip,
        '--mode',
        'replace',
        '--resolution',
        '480p',
        '--prompt',
        'calm',
        '--yes',
        '--out',
        out,
        '--json',
      ],
      run.io,
    );
    expect(code).toBe(0);
    const job = JSON.parse(run.out.join('\n')) as {
      phase: string;
      request: Record<string, unknown>;
      costEstimate: { credits: number };
    };
    expect(job.phase).toBe('completed');
    expect(job.request).toMatchObject({ duration: 3, resolution: '480p', mode: 'replace', prompt: 'calm' });
    expect(job.costEstimate.credits).toBe(5);
    expect(probe(out).width).toBeGreaterThan(0);
  }, 120_000);

  it.each([
    [['--mode', 'morph'], "argument 'morph' is invalid. Allowed choices are animate, replace."],
    [['--duration', '121'], '--duration must be a number from 1 to 120'],
    [['--resoluton', '1080p', '--yes'], 'Did you mean --resolution?'],
    [['--prompt', 'x'.repeat(501)], '--prompt must be at most 500 characters (it has 501)'],
  ])('refuses %j before asking anything', async (extra, message) => {
    const run = io();
    expect(await runCli(['character-swap', '--image', portrait, '--video', clip, ...extra], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain(message);
  });
});

describe('the job bar drawn on a terminal', () => {
  it('fills with the estimated progress and names the phase', () => {
    expect(jobBar({ progress: 0, phase: 'queued' })).toBe('[------------------------]   0% Queued');
    expect(jobBar({ progress: 0.5, phase: 'processing' })).toBe('[############------------]  50% Processing');
    expect(jobBar({ progress: 1.2, phase: 'completed' })).toBe('[########################] 100% Completed');
  });
});
