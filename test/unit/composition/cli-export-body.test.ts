import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { fixtures } from './helpers';
import { makeTone } from '../../fixtures/composition/make-media';

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), env: {}, cwd: fixtures };
}

describe('studio export-body', () => {
  it('prints the golden avatar-video body', async () => {
    const cli = io();
    expect(
      await runCli(
        [
          'export-body',
          'two-scenes.project.json',
          '--webhook',
          'https://hooks.example/done',
          '--placement',
          'top-left',
        ],
        cli,
      ),
    ).toBe(0);
    expect(JSON.parse(cli.stdout.join('\n'))).toEqual(
      JSON.parse(readFileSync(join(fixtures, 'golden/two-scenes.avatar-video.body.json'), 'utf8')),
    );
    expect(cli.stderr).toEqual([]);
  });

  it('prints the talking-avatar body for a talking-avatar project', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'talking.project.json'], cli)).toBe(0);
    expect(JSON.parse(cli.stdout.join('\n'))).toMatchObject({ width: 1080, height: 1920, avatar_from: 3 });
  });

  it('prints every problem and exits non-zero', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'two-scenes.project.json', '--target', 'talking-avatar'], cli)).toBe(3);
    expect(cli.stdout).toEqual([]);
    expect(cli.stderr).toEqual([
      'The project cannot be sent as a talking-avatar request (2 problem(s)):',
      '  error    A talking avatar has exactly one scene (this project has 2).',
      '  error    Scene 1 (Intro), element clip: a talking avatar cannot contain video elements (only avatar, image and audio).',
    ]);
  });

  it('explains bad command lines and unreadable files', async () => {
    const cli = io();
    expect(await runCli(['export-body', 'two-scenes.project.json', '--target', 'gif'], cli)).toBe(2);
    expect(cli.stderr[0]).toMatch(
      /option '--target <KIND>' argument '[^']*' is invalid. Allowed choices are avatar-video, talking-avatar/,
    );
    expect(await runCli(['export-body', 'nope.json'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toBe('Cannot read nope.json: no such file');
    expect(await runCli(['export-body', 'progress-3s.txt'], cli)).toBe(1);
    expect(cli.stderr.at(-1)).toMatch(/progress-3s\.txt is not a valid project\. Not valid JSON/);
  });
});

describe('studio export-body --check-media', () => {
  let dir: string;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-links-'));
    const voice = readFileSync(makeTone(join(dir, 'voice.wav'), { seconds: 1 }));
    server = createServer((req, res) =>
      req.url === '/voice.wav'
        ? res.writeHead(200, { 'content-length': voice.length }).end(req.method === 'HEAD' ? undefined : voice)
        : res.writeHead(404, 'Not Found').end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const project = (logo: string) => ({
      schemaVersion: 1,
      id: 'links',
      name: 'Links',
      kind: 'avatar-video',
      output: { width: 1280, height: 720 },
      background: '#000000',
      scenes: [
        {
          id: 'intro',
          durationMs: 3000,
          voice: { kind: 'url', url: `${origin}/voice.wav` },
          elements: [
            {
              id: 'anna',
              type: 'avatar',
              url: '',
              avatarId: 'anna',
              avatarFrom: 2,
              offsetX: 0,
              offsetY: 0,
              scaleX: 0.5,
              scaleY: 0.5,
              layer: 1,
            },
            {
              id: 'logo',
              type: 'image',
              url: logo,
              offsetX: 0,
              offsetY: 0,
              scaleX: 0.2,
              scaleY: 0.2,
              layer: 2,
              name: 'Logo',
            },
          ],
        },
      ],
    });
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(project(`${origin}/logo.png`)));
    const fine = project('');
    fine.scenes[0].elements = fine.scenes[0].elements.slice(0, 1);
    writeFileSync(join(dir, 'fine.json'), JSON.stringify(fine));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const linkIo = () => ({ ...io(), cwd: dir, env: { PATH: process.env.PATH } });

  it('names each broken link with its scene, element, URL and reason, and exits 1', async () => {
    const cli = linkIo();
    expect(await runCli(['export-body', 'broken.json', '--check-media', '--data-dir', join(dir, 'data')], cli)).toBe(3);
    expect(cli.stdout).toEqual([]);
    expect(cli.stderr).toEqual([
      `  error    Scene 1 (intro), element logo (Logo): the image link is broken (HTTP 404 Not Found).  ${origin}/logo.png`,
      '1 link(s) would make the paid job fail; nothing to send until they are fixed.',
    ]);
    // Without the flag the same project passes: only the pre-flight sees the link is gone.
    const plain = linkIo();
    expect(await runCli(['export-body', 'broken.json'], plain)).toBe(0);
  });

  it('prints the body when every link answers', async () => {
    const cli = linkIo();
    expect(await runCli(['export-body', 'fine.json', '--check-media', '--data-dir', join(dir, 'data')], cli)).toBe(0);
    expect(JSON.parse(cli.stdout.join('\n'))).toMatchObject({
      data: [{ voice: { voice_url: `${origin}/voice.wav` } }],
    });
    expect(cli.stderr).toEqual([]);
  });
});
