import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addElement, createProject, type Project } from '@common/composition';
import { createMediaToolkit } from '../../../electron/services/media/toolkit';
import { FFMPEG, pixelAt } from '../../fixtures/composition/make-media';
import { UPRIGHT_QUADRANTS, ffmpegGenerations, sidewaysPhoto } from '../composition/exif-jpeg';

const close = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]) < 70);

/**
 * A phone photo link (stored sideways, EXIF orientation 6) through the whole preview path, with each
 * ffmpeg the studio may run: the renderer reads the tag and the picture comes out upright in both.
 */
describe('a sideways photo link in a preview', () => {
  let dir: string;
  let server: Server;
  let base = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'preview-pictures-'));
    mkdirSync(join(dir, 'served'));
    sidewaysPhoto(join(dir, 'served'), FFMPEG, 'phone.jpg');
    server = createServer((req, res) => {
      const file = join(dir, 'served', basename((req.url ?? '').split('?')[0]));
      if (!existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(ffmpegGenerations())('stands upright when rendered by the $name', async ({ name, bin }) => {
    const toolkit = createMediaToolkit({
      dataDir: join(dir, `data-${name.replace(/\W/g, '')}`),
      settings: () => ({ ffmpegPath: bin }),
    });
    try {
      let project: Project = createProject({
        id: 'p',
        kind: 'avatar-video',
        output: { width: 320, height: 320 },
        background: '#000000',
      });
      project = addElement(project, 'scene-1', {
        id: 'photo',
        type: 'image',
        url: `${base}/phone.jpg`,
        x: 80,
        y: 40,
        width: 120,
        height: 240,
      });
      project = { ...project, scenes: [{ ...project.scenes[0], durationMs: 600 }] };
      const out = join(dir, `${name.replace(/\W/g, '')}.mp4`);
      await toolkit.renderer.render(project, { quality: 'preview', outputPath: out });
      const corners = {
        topLeft: [110, 100],
        topRight: [170, 100],
        bottomLeft: [110, 220],
        bottomRight: [170, 220],
      } as const;
      for (const [corner, [x, y]] of Object.entries(corners)) {
        const seen = pixelAt(out, 0.2, x, y);
        expect(close(seen, UPRIGHT_QUADRANTS[corner as keyof typeof corners]), `${corner}: ${seen.join(',')}`).toBe(
          true,
        );
      }
    } finally {
      await toolkit.dispose();
    }
  });
});
