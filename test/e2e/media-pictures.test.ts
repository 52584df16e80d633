// Pictures as people have them, end to end in Chromium from a fresh data folder: a JPEG link and a
// phone photo dropped from the desktop (stored sideways, EXIF orientation 6) become picture elements,
// stand upright on the canvas, in the ffmpeg preview and in the sandbox's result; a HEIC photo is
// refused in plain words; a live face swap session made from faces found in a video holds a picture.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge';
import type { LiveSession } from '@common/bridge/faces';
import type { MediaInfo } from '@common/composition/media-info';
import { openStudio, screenshot, type StudioSession } from './browser';
import { addMediaLink, dropFiles, newProject, waitForJobCreated } from './editor-helpers';
import { jpegOrientation } from '@common/composition/exif-orientation';
import { UPRIGHT_QUADRANTS, sidewaysPhoto } from '../unit/composition/exif-jpeg';
import { confirmPrice } from './price';
import { HANG_GUARD_MS } from '../wait';

type Rgb = readonly number[];
type Box = { x: number; y: number; width: number; height: number };
const GREEN: Rgb = [0, 200, 0];
const close = (a: Rgb, b: Rgb) => a.every((v, i) => Math.abs(v - b[i]) < 70);

const dir = mkdtempSync(join(tmpdir(), 'studio-e2e-pictures-'));

async function callBridge<T>(page: Page, channel: string, ...args: unknown[]): Promise<T> {
  const answer = await page.evaluate(
    async ({ channel, args }) => {
      const response = await fetch(`/bridge/call/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    },
    { channel, args },
  );
  if (!answer.ok) throw new Error(`${channel}: ${answer.error?.message}`);
  return answer.value as T;
}

/** The selected element's box as the inspector shows it, in output pixels. */
async function inspectedBox(page: Page): Promise<Box> {
  const [x, y, width, height] = await Promise.all(
    ['X', 'Y', 'Width', 'Height'].map(async (name) =>
      Number(await page.getByRole('textbox', { name, exact: true }).inputValue()),
    ),
  );
  return { x, y, width, height };
}

async function moveSelected(page: Page, x: number, y: number): Promise<void> {
  for (const [name, value] of [
    ['X', x],
    ['Y', y],
  ] as const) {
    const field = page.getByRole('textbox', { name, exact: true });
    await field.fill(String(value));
    await field.press('Enter');
  }
}

/** The shape of each picture the canvas's Konva stage draws, bottom first ("no stage" when there is none). */
async function drawnPictures(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type KonvaNode = { getClassName(): string; getChildren?(): KonvaNode[]; image?(): unknown };
    const stages =
      (window as unknown as { Konva?: { stages: Array<KonvaNode & { container(): HTMLElement }> } }).Konva?.stages ??
      [];
    const stage = stages.find((s) => s.container().closest('[data-testid="editor-canvas"]'));
    if (!stage) return [`no stage (${stages.length})`];
    const shapes: string[] = [];
    const visit = (node: KonvaNode): void => {
      const picture = node.getClassName() === 'Image' ? node.image?.() : undefined;
      if (picture instanceof HTMLImageElement && picture.complete && picture.naturalWidth > 0)
        shapes.push(picture.naturalWidth > picture.naturalHeight ? 'landscape' : 'portrait');
      node.getChildren?.().forEach(visit);
    };
    visit(stage);
    return shapes;
  });
}

/** Colours of the preview playing in the page at `seconds`, at points given as fractions of the frame. */
async function previewColours(page: Page, seconds: number, points: Array<[number, number]>): Promise<Rgb[]> {
  const video = page.getByLabel('Preview video');
  await video.waitFor({ timeout: 90_000 });
  return video.evaluate(
    (el: HTMLVideoElement, { seconds, points }) =>
      new Promise<number[][]>((resolve, reject) => {
        const read = () => {
          const canvas = document.createElement('canvas');
          canvas.width = el.videoWidth;
          canvas.height = el.videoHeight;
          const context = canvas.getContext('2d')!;
          context.drawImage(el, 0, 0);
          resolve(
            points.map(([fx, fy]) => [
              ...context
                .getImageData(Math.round(fx * el.videoWidth), Math.round(fy * el.videoHeight), 1, 1)
                .data.slice(0, 3),
            ]),
          );
        };
        el.addEventListener('error', () => reject(new Error('the preview does not play')), { once: true });
        const seek = () => {
          el.addEventListener('seeked', read, { once: true });
          el.pause();
          el.currentTime = seconds;
        };
        if (el.readyState >= 2) seek();
        else el.addEventListener('loadeddata', seek, { once: true });
      }),
    { seconds, points },
  );
}

/** The four quadrants of a box (as fractions of a frame of `frame` size), in UPRIGHT_QUADRANTS order. */
function quadrantPoints(box: Box, frame: { width: number; height: number }): Array<[number, number]> {
  return [
    [0.25, 0.25],
    [0.75, 0.25],
    [0.25, 0.75],
    [0.75, 0.75],
  ].map(([fx, fy]) => [(box.x + box.width * fx) / frame.width, (box.y + box.height * fy) / frame.height]);
}
const centre = (box: Box, frame: { width: number; height: number }): [number, number] => [
  (box.x + box.width / 2) / frame.width,
  (box.y + box.height / 2) / frame.height,
];
const uprightColours = Object.values(UPRIGHT_QUADRANTS);

describe('pictures in Chromium from a fresh data folder', () => {
  let studio: StudioSession;
  let server: Server;
  let linkOrigin = '';
  const files = {
    link: join(dir, 'served', 'shop-window.jpg'),
    phone: '',
    voice: join(dir, 'voice.wav'),
    heic: join(dir, 'IMG_0001.HEIC'),
  };

  beforeAll(async () => {
    execFileSync('mkdir', ['-p', join(dir, 'served')]);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=0x00C800:s=320x180',
      '-frames:v',
      '1',
      files.link,
    ]);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', files.voice]);
    files.phone = sidewaysPhoto(dir, 'ffmpeg', 'phone photo.jpg');
    copyFileSync(join(import.meta.dirname, '..', 'media-corpus', 'committed', 'photo.heic'), files.heic);
    // A plain web server for the link, as a shop's site would serve its picture.
    server = createServer((request, response) => {
      const name = decodeURIComponent((request.url ?? '').split('?')[0].replace(/^\//, ''));
      try {
        const body = readFileSync(join(dir, 'served', name.replace(/[\\/]/g, '')));
        response
          .writeHead(200, {
            'content-type': 'image/jpeg',
            'content-length': body.length,
            'access-control-allow-origin': '*',
          })
          .end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    linkOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    studio = await openStudio({ hash: '#/editor' });
    await studio.page
      .getByRole('button', { name: /^Add avatar / })
      .first()
      .waitFor({ timeout: 90_000 });
  });
  afterAll(async () => {
    await studio?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a JPEG link and a dropped sideways phone photo as pictures, upright in the preview and the result', async () => {
    const { page } = studio;
    await newProject(page, 'Avatar video', 'Pictures');
    const frame = { width: 1920, height: 1080 };
    const timeline = page.getByRole('region', { name: 'Timeline' });

    await addMediaLink(page, `${linkOrigin}/shop-window.jpg`);
    await timeline.getByRole('button', { name: 'shop-window.jpg in scene 1' }).waitFor();
    await moveSelected(page, 0, 0);
    const linkBox = await inspectedBox(page);

    const canvas = (await page.getByTestId('editor-canvas').locator('canvas').first().boundingBox())!;
    await dropFiles(
      page,
      [
        { path: files.phone, type: 'image/jpeg' },
        { path: files.voice, type: 'audio/wav' },
      ],
      { x: canvas.x + canvas.width * 0.75, y: canvas.y + canvas.height / 2 },
    );
    await timeline.getByRole('button', { name: 'phone photo.jpg in scene 1' }).waitFor();
    await moveSelected(page, 1200, 100);
    const photoBox = await inspectedBox(page);
    // Measured as it stands: a portrait picture (stored 64×32, upright 32×64), not a landscape one.
    expect(photoBox.height / photoBox.width).toBeCloseTo(2, 1);

    const problems = page.getByRole('region', { name: 'Problems' });
    await expect.poll(() => problems.textContent()).toContain('uploaded to your storage when you create the video');
    expect(await problems.textContent()).not.toMatch(/video, not a picture|is a video/);
    // The canvas draws both as pictures (Konva images that loaded): the link landscape, the photo upright.
    await expect.poll(() => drawnPictures(page), { timeout: HANG_GUARD_MS }).toEqual(['landscape', 'portrait']);
    await screenshot(page, 'pictures-canvas');

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const seen = await previewColours(page, 1, [centre(linkBox, frame), ...quadrantPoints(photoBox, frame)]);
    await screenshot(page, 'pictures-preview');
    expect(close(seen[0], GREEN), `link picture centre ${seen[0].join(',')}`).toBe(true);
    seen
      .slice(1)
      .forEach((colour, i) =>
        expect(close(colour, uprightColours[i]), `photo quadrant ${i}: ${colour.join(',')}`).toBe(true),
      );
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: 'Create video' }).click();
    await page.getByRole('button', { name: 'Send to the service' }).click();
    await waitForJobCreated(page);
    const finished = async () =>
      (await callBridge<JobView[]>(page, 'jobs.list')).find(
        (j) => j.kind === 'avatar-video' && j.phase === 'completed',
      );
    await expect.poll(finished, { timeout: 90_000 }).toBeTruthy();
    const job = (await finished())!;
    const elements =
      (job.request as { data?: Array<{ elements: Array<{ type: string; url?: string }> }> }).data?.[0]?.elements ?? [];
    expect(elements.filter((e) => e.type === 'image').map((e) => e.url)).toEqual([
      `${linkOrigin}/shop-window.jpg`,
      expect.stringMatching(/phone_photo\.jpg$/),
    ]);
    expect(elements.some((e) => e.type === 'video')).toBe(false);
    // What the service received is the photo already upright, with no tag left to turn it again: the
    // same picture whether the service's ffmpeg honours EXIF or not.
    const uploaded = Buffer.from(
      await (await fetch(elements.find((e) => e.url?.endsWith('phone_photo.jpg'))!.url!)).arrayBuffer(),
    );
    expect(jpegOrientation(uploaded)).toBe(1);
    const stored = join(dir, 'uploaded.jpg');
    writeFileSync(stored, uploaded);
    expect(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', stored], {
        encoding: 'utf8',
      }).trim(),
    ).toBe('32,64');

    // The sandbox's result shows both pictures where the canvas put them, the photo upright.
    const result = join(dir, 'result.mp4');
    writeFileSync(result, Buffer.from(await (await fetch(job.resultUrl!)).arrayBuffer()));
    const pixel = ([fx, fy]: [number, number]): Rgb => [
      ...execFileSync('ffmpeg', [
        '-v',
        'error',
        '-ss',
        '0.5',
        '-i',
        result,
        '-frames:v',
        '1',
        '-vf',
        `scale=${frame.width}:${frame.height},crop=1:1:${Math.round(fx * frame.width)}:${Math.round(fy * frame.height)}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ]),
    ];
    expect(close(pixel(centre(linkBox, frame)), GREEN)).toBe(true);
    quadrantPoints(photoBox, frame).forEach((point, i) =>
      expect(close(pixel(point), uprightColours[i]), `result quadrant ${i}`).toBe(true),
    );
    expect(studio.consoleErrors).toEqual([]);
    // A paid video with an uploaded photo: 44 s beside busy loops, so a guard of its own.
  }, 300_000);

  it('refuses a HEIC photo in plain words and adds nothing', async () => {
    const { page } = studio;
    const canvas = (await page.getByTestId('editor-canvas').locator('canvas').first().boundingBox())!;
    await dropFiles(page, [{ path: files.heic, type: 'image/heic' }], { x: canvas.x + 50, y: canvas.y + 50 });
    const refusal = page.getByText(
      /IMG_0001\.HEIC: An? HEIC picture cannot be used for an image element: the service does not take HEIC\. Save it as JPEG or PNG/,
    );
    await refusal.waitFor({ timeout: HANG_GUARD_MS });
    await screenshot(page, 'pictures-heic-refused');
    expect(
      await page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('button', { name: /IMG_0001/ })
        .count(),
    ).toBe(0);
  });

  it('makes a live face swap session from faces found in an avatar clip hold a picture, not the clip', async () => {
    const { page } = studio;
    const avatars = await callBridge<Array<{ url: string; avatar_id: string }>>(page, 'catalogue.avatars', { from: 2 });
    const clip = avatars.find((a) => a.avatar_id === 'SandboxAnna')!.url;
    await page.getByRole('button', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.locator('.n-tabs-tab[data-name="face-detection"]').click();
    await page.getByLabel('Media to detect faces in').fill(clip);
    await page.getByLabel('Video frames').fill('2');
    await page.getByRole('button', { name: 'Detect faces' }).click();
    const region = page.getByRole('region', { name: 'Detected faces' });
    await region.getByRole('button', { name: 'Use for live face swap' }).click({ timeout: HANG_GUARD_MS });
    await region.getByText('Chosen for live face swap').waitFor();

    await tools.locator('.n-tabs-tab[data-name="live-face-swap"]').click();
    const chosen = page.getByRole('list', { name: 'Chosen faces' });
    // The chosen face's thumbnail is a picture that loads.
    await expect
      .poll(() =>
        chosen
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Create session' }).click();
    await confirmPrice(page);
    await page.locator('section.session').waitFor({ timeout: HANG_GUARD_MS });
    const [session] = await callBridge<LiveSession[]>(page, 'live.sessions');
    const path = session.faces[0].path;
    expect(path).not.toBe(clip);
    expect((await callBridge<MediaInfo>(page, 'media.probe', path)).kind).toBe('image');
    await screenshot(page, 'pictures-live-session');
    await page.locator('section.session').getByRole('button', { name: 'Close session' }).click();
    await expect.poll(() => page.locator('section.session').count()).toBe(0);
    expect(studio.consoleErrors).toEqual([]);
  });
});
