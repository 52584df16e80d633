import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import type { PlacementConvention } from '../../../electron/common/composition/placement';
import { ConnectionManager } from '../../../electron/services/connections/connection-manager';
import { EnvVault } from '../../../electron/services/connections/env-vault';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { addElement, createProject, toTalkingAvatarBody, type Project } from '../../../electron/common/composition';
import { pixelAt } from '../../fixtures/composition/make-media';
import { call, dataOf, ffmpeg, probe, sample, start, until } from '../emulator/harness';

/** Check placement proves each convention against a sandbox that imitates it. */
const dir = mkdtempSync(join(tmpdir(), 'studio-check-placement-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_DATA_DIR: join(dir, 'data'), ...env },
    cwd: dir,
    // The built-in sandbox's check job ends as soon as its render does, not after the 4 s a job takes by default.
    sandbox: { jobSeconds: 0.2 },
  };
  return { io: value, out, err };
}

const CONVENTIONS: PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'top-left', scale: 'element' },
];

describe('studio check-placement', () => {
  it('says what it would send and its cost, and sends nothing without --yes', async () => {
    const run = io();
    expect(await runCli(['check-placement'], run.io)).toBe(3);
    expect(run.err.join('\n')).toMatch(
      /One talking avatar, 640×360[\s\S]*Cost: [\s\S]*Balance: \d+ credits[\s\S]*Nothing was sent/,
    );
  }, 120_000);

  for (const convention of CONVENTIONS) {
    it(`proves ${convention.anchor}/${convention.scale} against a sandbox that reads it`, async () => {
      const em = await start({ placement: convention.anchor, scale: convention.scale });
      try {
        const run = io({ STUDIO_API_KEY: em.apiKey });
        const code = await runCli(['check-placement', '--base-url', em.url, '--yes', '--json'], run.io);
        const result = JSON.parse(run.out.join('\n'));
        expect(result, run.err.join('\n')).toMatchObject({ proved: true, convention });
        expect(code).toBe(0);

        // Calibrated: a project written in the proven convention lands where the canvas showed it.
        await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:size=100x50', '-frames:v', '1', join(dir, 'red.png')]);
        const upload = await fetch(`${em.url}/__sandbox/uploads/red.png`, {
          method: 'PUT',
          headers: { 'x-api-key': em.apiKey },
          body: readFileSync(join(dir, 'red.png')),
        });
        const redUrl = ((await upload.json()) as { data: { url: string } }).data.url;
        const avatarUrl = sample(em, 'avatar-SandboxAnna.mp4');
        const clip = await probe(avatarUrl);
        let p: Project = createProject({ id: 'p', kind: 'talking-avatar', output: { width: 320, height: 180 } });
        p = addElement(p, 'scene-1', {
          id: 'avatar',
          type: 'avatar',
          url: avatarUrl,
          avatarFrom: 3,
          x: 260,
          y: 120,
          width: 40,
          height: 40,
          mediaSize: { width: clip.width!, height: clip.height! },
        });
        p = addElement(p, 'scene-1', {
          id: 'red',
          type: 'image',
          url: redUrl,
          x: 30,
          y: 40,
          width: 100,
          height: 50,
          mediaSize: { width: 100, height: 50 },
        });
        p = addElement(p, 'scene-1', {
          id: 'voice',
          type: 'audio',
          url: sample(em, 'voice-sandbox_isla.mp3'),
          x: 0,
          y: 0,
          width: 0,
          height: 0,
        });
        const created = dataOf(
          await call(
            em,
            'talkingAvatarCreate',
            toTalkingAvatarBody(p, { placement: result.convention }) as unknown as Record<string, unknown>,
          ),
        );
        const done = dataOf(
          await until(
            () => call(em, 'videoInfo', { video_model_id: created._id }),
            (r) => dataOf(r).video_status >= 3,
          ),
        );
        const video = join(dir, `${created._id}.mp4`);
        await ffmpeg(['-i', String(done.video), '-c', 'copy', video]);
        const red = (x: number, y: number) => {
          const [r, g, b] = pixelAt(video, 0.3, x, y);
          return r > 190 && g < 70 && b < 70;
        };
        expect([red(33, 43), red(126, 43), red(33, 86), red(126, 86)]).toEqual([true, true, true, true]);
        expect([red(26, 65), red(134, 65), red(80, 36), red(80, 94)]).toEqual([false, false, false, false]);
      } finally {
        await em.close();
      }
    }, 120_000);
  }

  it('stores the proven convention on the connection', async () => {
    const run = io();
    expect(await runCli(['check-placement', '--yes'], run.io)).toBe(0);
    const connections = new ConnectionManager({
      createStore: createConfStoreFactory(join(dir, 'data'), { log: new MemoryLogger(), notify: () => undefined }),
      vault: new EnvVault({}),
      sandbox: async () => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' }),
    });
    expect((await connections.get('sandbox')).placement).toMatchObject({
      anchor: 'centre',
      scale: 'frame',
      source: 'measured',
      checkedAt: expect.any(Number),
    });
  }, 120_000);
});
