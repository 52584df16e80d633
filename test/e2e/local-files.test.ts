// Local files end to end in Chromium: a picture and a voice recording dropped from the desktop onto the
// canvas become part of the scene, are uploaded to the sandbox storage when the video is created, and
// the finished video shows the picture where the canvas put it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { JobView } from '@common/bridge';
import { openStudio, screenshot, type StudioSession } from './browser';
import { discardIfAsked, dropFiles, waitForJobCreated } from './editor-helpers';

const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-local-'));

function makeFiles(): { png: string; wav: string; mp4: string } {
  const png = join(dir, 'brand card.png');
  const wav = join(dir, 'my voice.wav');
  const mp4 = join(dir, 'product clip.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0x0000FF:s=320x180:d=2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    mp4,
  ]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=0xFF0000:s=480x270',
    '-frames:v',
    '1',
    png,
  ]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', wav]);
  return { png, wav, mp4 };
}

async function listJobs(page: Page): Promise<JobView[]> {
  return page.evaluate(async () => {
    const response = await fetch('/bridge/call/jobs.list', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    return ((await response.json()) as { value: JobView[] }).value;
  });
}

describe('local files in the editor', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
    await studio.page
      .getByRole('button', { name: /^Add avatar / })
      .first()
      .waitFor({ timeout: 90_000 });
  });
  afterAll(async () => {
    await studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops a picture and a voice on the canvas, uploads them on Create, and the result shows the picture', async () => {
    const { page } = studio;
    const { png, wav, mp4 } = makeFiles();
    await page.getByRole('button', { name: 'File menu' }).click();
    await page.getByText('New project…').click();
    await discardIfAsked(page, page.getByRole('radio', { name: /Avatar video/ }));
    await page.getByRole('radio', { name: /Avatar video/ }).click();
    await page.getByRole('textbox', { name: 'New project name' }).fill('Local files');
    await page.getByRole('button', { name: 'Create project' }).click();

    const canvas = await page.getByTestId('editor-canvas').locator('canvas').first().boundingBox();
    if (!canvas) throw new Error('canvas not visible');
    await dropFiles(
      page,
      [
        { path: png, type: 'image/png' },
        { path: wav, type: 'audio/wav' },
      ],
      { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 },
    );
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: 'brand card.png in scene 1' })
      .waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Problems' }).textContent())
      .toContain('uploaded to your storage when you create the video');
    const box = await Promise.all(
      ['X', 'Y', 'Width', 'Height'].map(async (name) =>
        Number(await page.getByRole('textbox', { name, exact: true }).inputValue()),
      ),
    );
    // A local clip in the top-left corner, under the picture.
    await dropFiles(page, [{ path: mp4, type: 'video/mp4' }], {
      x: canvas.x + canvas.width / 2,
      y: canvas.y + canvas.height / 2,
    });
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: 'product clip.mp4 in scene 1' })
      .waitFor();
    for (const name of ['X', 'Y']) {
      const field = page.getByRole('textbox', { name, exact: true });
      await field.fill('0');
      await field.press('Enter');
    }
    const clipBox = await Promise.all(
      ['X', 'Y', 'Width', 'Height'].map(async (name) =>
        Number(await page.getByRole('textbox', { name, exact: true }).inputValue()),
      ),
    );
    await page.getByRole('button', { name: 'Send backward' }).click();
    await screenshot(page, 'editor-local-files');
    // Playing a scene with a local clip moves the playhead (the clip is a still the host drew; the page
    // once tried to play that still and the playback stopped dead at 0:00.0).
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => timeline.getByLabel('Playhead time').textContent()).not.toMatch(/^0:00\.0/);
    await timeline.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(studio.consoleErrors).toEqual([]);

    // The free local preview reads the local files in place.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByLabel('Preview video').waitFor({ timeout: 90_000 });
    await screenshot(page, 'editor-local-files-preview');
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: 'Create video' }).click();
    await page.getByRole('button', { name: 'Send to the service' }).click();
    await waitForJobCreated(page);
    const job = await expect
      .poll(async () => (await listJobs(page)).find((j) => j.kind === 'avatar-video' && j.phase === 'completed'), {
        timeout: 90_000,
      })
      .toBeTruthy()
      .then(async () => (await listJobs(page)).find((j) => j.kind === 'avatar-video')!);
    const sent = JSON.stringify(job.request);
    expect(sent).not.toContain('file:');
    expect(sent).toMatch(/\/files\/up-[0-9a-f]+-brand_card\.png/);
    expect(sent).toMatch(/\/files\/up-[0-9a-f]+-my_voice\.wav/);
    expect(sent).toMatch(/\/files\/up-[0-9a-f]+-product_clip\.mp4/);

    // The picture is in the finished video, at the centre of the box the inspector showed.
    const video = join(dir, 'result.mp4');
    writeFileSync(video, Buffer.from(await (await fetch(job.resultUrl!)).arrayBuffer()));
    const pixelAt = ([x, y, w, h]: number[], dx: number, dy: number) =>
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-ss',
        '0.5',
        '-i',
        video,
        '-frames:v',
        '1',
        '-vf',
        `scale=1920:1080,crop=1:1:${Math.round(x + w * dx)}:${Math.round(y + h * dy)}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ]);
    const red = pixelAt(box, 0.5, 0.5);
    expect([red[0] > 200, red[1] < 60, red[2] < 60]).toEqual([true, true, true]);
    // The clip's top-left quarter lies outside the picture: it shows the clip's blue.
    const blue = pixelAt(clipBox, 0.1, 0.1);
    expect([blue[0] < 60, blue[1] < 60, blue[2] > 200]).toEqual([true, true, true]);
    expect(studio.consoleErrors).toEqual([]);
    // About 15 s on a quiet machine (a paid video and its upload), 75 s beside busy loops: a guard of its own.
  }, 300_000);

  it('reuses the uploaded file in a second project, and sends through an S3-compatible storage when it is chosen', async () => {
    const { page } = studio;
    const first = (await listJobs(page)).find((j) => j.kind === 'avatar-video')!;
    const firstPicture = /"(http[^"]+brand_card\.png)"/.exec(JSON.stringify(first.request))![1];
    const send = async (name: string): Promise<JobView> => {
      await page.getByRole('button', { name: 'File menu' }).click();
      await page.getByText('New project…').click();
      await discardIfAsked(page, page.getByRole('radio', { name: /Avatar video/ }));
      await page.getByRole('radio', { name: /Avatar video/ }).click();
      await page.getByRole('textbox', { name: 'New project name' }).fill(name);
      await page.getByRole('button', { name: 'Create project' }).click();
      const canvas = (await page.getByTestId('editor-canvas').locator('canvas').first().boundingBox())!;
      await dropFiles(
        page,
        [
          { path: join(dir, 'brand card.png'), type: 'image/png' },
          { path: join(dir, 'my voice.wav'), type: 'audio/wav' },
        ],
        { x: canvas.x + 100, y: canvas.y + 100 },
      );
      await page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('button', { name: 'brand card.png in scene 1' })
        .waitFor();
      const before = (await listJobs(page)).length;
      await page.getByRole('button', { name: 'Create video' }).click();
      await page.getByRole('button', { name: 'Send to the service' }).click();
      await waitForJobCreated(page);
      await expect.poll(async () => (await listJobs(page)).length).toBe(before + 1);
      return (await listJobs(page)).sort((a, b) => b.createdAt - a.createdAt)[0];
    };
    // The same bytes in another project: the link from the first upload, not a second upload.
    const again = await send('Same file again');
    expect(JSON.stringify(again.request)).toContain(firstPicture);

    // A real S3-compatible server on loopback becomes the active storage.
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [{ name: 'studio-e2e', configs: [] }],
    });
    const endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    try {
      await page.evaluate(async (address) => {
        const bridge = async (channel: string, ...args: unknown[]) => {
          const answer = (await (
            await fetch(`/bridge/call/${channel}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(args),
            })
          ).json()) as { ok: boolean; value: { id: string }; error?: { message: string } };
          if (!answer.ok) throw new Error(answer.error?.message);
          return answer.value;
        };
        const added = await bridge('storage.add', {
          name: 'E2E bucket',
          endpoint: address,
          region: 'us-east-1',
          bucket: 'studio-e2e',
          prefix: 'e2e/',
          pathStyle: true,
          publicBaseUrl: null,
        });
        await bridge('storage.setSecret', added.id, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
        await bridge('storage.setActive', added.id);
      }, endpoint);
      const viaS3 = await send('Through S3');
      expect(JSON.stringify(viaS3.request)).toContain(`${endpoint}/studio-e2e/e2e/`);
      await expect
        .poll(async () => (await listJobs(page)).find((j) => j.id === viaS3.id)?.phase, { timeout: 90_000 })
        .toBe('completed');
    } finally {
      await s3.close();
    }
    expect(studio.consoleErrors).toEqual([]);
  }, 300_000);
});
