import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, dataOf, sample, until, SLOW, useSandbox } from './harness';

// The benches' sandbox option: every avatar video is one ready-made file, so a bench of a thousand rows
// measures how they are sent and followed rather than ffmpeg; the body's inputs are still fetched.
const dir = mkdtempSync(join(tmpdir(), 'sandbox-ready-made-'));
const fixture = join(dir, 'ready.mp4');
execFileSync('ffmpeg', [
  ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=10:duration=1'],
  ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', fixture],
]);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sandbox with a ready-made video', { timeout: SLOW }, () => {
  const sandbox = useSandbox({ videoFixture: fixture });
  const scene = (backdrop: string) => ({
    width: 320,
    height: 180,
    duration: 1000,
    ratio: '16:9',
    voice: { voice_url: sample(sandbox.em, 'voice-sandbox_ava.mp3') },
    background: '#ffffff',
    avatarFrom: 2,
    elements: [{ type: 'image', url: backdrop, scale_x: 1, scale_y: 1, offset_x: 0, offset_y: 0, layer_number: 1 }],
  });
  const ended = (id: string) =>
    until(
      () => call(sandbox.em, 'videoInfo', { video_model_id: id }),
      (r) => dataOf(r).video_status >= 3,
    ).then(dataOf);

  it('returns the ready-made file instead of rendering the body', async () => {
    const created = dataOf(
      await call(sandbox.em, 'avatarVideoCreate', { data: [scene(sample(sandbox.em, 'sandbox-backdrop.png'))] }),
    );
    const done = await ended(created._id);
    expect(done.video_status).toBe(3);
    const made = Buffer.from(await (await fetch(String(done.video))).arrayBuffer());
    expect(made.equals(readFileSync(fixture))).toBe(true);
  });

  it('still fetches the body’s inputs, so a broken link fails the job', async () => {
    const created = dataOf(
      await call(sandbox.em, 'avatarVideoCreate', { data: [scene(`${sandbox.em.url}/sandbox/no-such-file.png`)] }),
    );
    const done = await ended(created._id);
    expect(done.video_status).toBe(4);
  });
});
