import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMusicTrack, setProjectMusic } from '@common/composition';
import type { RunningEmulator } from '../../../electron/emulator';
import { campaignMusicMixer, campaignVoiceParts } from '../../../electron/services/campaign/campaign-services';
import type { AvatarVideoBody } from '@common/api/video';
import { createMediaToolkit, type MediaToolkit } from '../../../electron/services/media/toolkit';
import { campaignHost, createCampaign, prospects, smallTemplate, startSandbox } from './campaign-harness';
import { MEDIA_TEST_GUARD_MS } from '../../wait';

let em: RunningEmulator;
let media: MediaToolkit;
const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-music-'));
const tune = join(dir, 'tune.mp3');
beforeAll(async () => {
  em = await startSandbox(dir);
  media = createMediaToolkit({ dataDir: join(dir, 'media-host') });
  // Six seconds of a tone: music longer than any row's voice.
  execFileSync(await media.binary('ffmpeg'), [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=6',
    '-c:a',
    'libmp3lame',
    tune,
  ]);
}, 120_000);
afterAll(async () => {
  await media.dispose();
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The small greeting with music under every scene. */
function withMusic() {
  const template = smallTemplate();
  return {
    ...template,
    project: setProjectMusic(template.project, defaultMusicTrack(pathToFileURL(tune).href, 'tune.mp3')),
  };
}

describe('a campaign whose template has music', () => {
  it(
    "mixes the music under each row's own voiceover on the host, as Create does, and sends the uploaded mix as the scene's voice",
    async () => {
      const dataDir = mkdtempSync(join(dir, 'mixed-'));
      const mixMusic = campaignMusicMixer(
        media.music,
        (ref) => media.cache.localPath(ref),
        (path) => pathToFileURL(path).href,
      );
      const host = campaignHost(em, dataDir, [], { mixMusic });
      await createCampaign(host, prospects(em, 2), join(dataDir, 'out'), { template: withMusic() });
      const record = await host.runner.run('c1');
      expect(record.rows.map((r) => [r.state, r.problems])).toEqual([
        ['done', []],
        ['done', []],
      ]);

      const videos = host.engine.list().filter((j) => j.kind === 'avatar-video' && j.purpose.type === 'campaign-row');
      const voices = videos.flatMap((j) =>
        (j.request as { data: { voice: { voice_url: string } }[] }).data.map((scene) => scene.voice.voice_url),
      );
      expect(voices).toHaveLength(4);
      const speech = new Set(
        host.engine
          .list()
          .filter((j) => j.kind === 'tts')
          .map((j) => j.resultUrl),
      );
      for (const url of voices) {
        // Neither the template's stand-in voice link nor the bare voiceover: an uploaded mix of its own.
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.*\.mp3$/);
        expect(speech.has(url)).toBe(false);
      }
      // Each scene of each row has its own mix (the rows speak different names).
      expect(new Set(voices).size).toBe(4);
      // The mix is the voice with the music under it: as long as the voice, with sound in it.
      const mixed = await media.cache.localPath(voices[0]);
      const info = await media.prober.probe(mixed);
      expect(info.hasAudio).toBe(true);
      expect(info.durationMs).toBeGreaterThan(500);
      await host.stop();
    },
    MEDIA_TEST_GUARD_MS,
  );

  it('fails the row by name on a host that cannot mix, instead of sending the placeholder', async () => {
    const dataDir = mkdtempSync(join(dir, 'unmixed-'));
    const host = campaignHost(em, dataDir);
    await createCampaign(host, prospects(em, 1), join(dataDir, 'out'), { template: withMusic() });
    const record = await host.runner.run('c1');
    expect(record.rows[0].state).toBe('failed');
    expect(record.rows[0].problems.join(' ')).toMatch(/Scene 1.*has music, and this host cannot mix it/);
    expect(host.engine.list().filter((j) => j.kind === 'avatar-video')).toEqual([]);
    await host.stop();
  }, 120_000);

  it("sends a scene with an element timed inside it as two items, each with its own cut of the row's voice", async () => {
    const dataDir = mkdtempSync(join(dir, 'timed-'));
    const voicePart = campaignVoiceParts(
      {
        mixer: media.music,
        localPath: (ref) => media.cache.localPath(ref),
        cut: media.tools.cutAudio.bind(media.tools),
        dir: join(dataDir, 'parts'),
      },
      (path) => pathToFileURL(path).href,
    );
    const template = smallTemplate();
    const [first, ...rest] = template.project.scenes;
    const shown = first.elements.find((e) => e.type !== 'audio')!;
    const timed = {
      ...template,
      project: {
        ...template.project,
        scenes: [
          { ...first, elements: first.elements.map((e) => (e.id === shown.id ? { ...e, startMs: 400 } : e)) },
          ...rest,
        ],
      },
    };
    const host = campaignHost(em, dataDir, [], { voicePart });
    await createCampaign(host, prospects(em, 1), join(dataDir, 'out'), { template: timed });
    const record = await host.runner.run('c1');
    expect(record.rows.map((r) => [r.state, r.problems])).toEqual([['done', []]]);
    const video = host.engine.list().find((j) => j.kind === 'avatar-video')!;
    const data = (video.request as AvatarVideoBody).data;
    // Scene 1 is two items cut at 0.4 s: the element only in the second; scene 2 is one item as before.
    expect(data).toHaveLength(rest.length + 2);
    expect(data[0].duration).toBe(400);
    expect(data[0].elements.some((e) => e.id === shown.id)).toBe(false);
    expect(data[1].elements.some((e) => e.id === shown.id)).toBe(true);
    // Each part's voice is an uploaded cut of its own, as long as its item.
    const [a, b] = [data[0], data[1]].map((d) => d.voice!.voice_url!);
    expect(a).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.*\.mp3$/);
    expect(b).not.toBe(a);
    const lengthOf = async (url: string) =>
      (await media.prober.probe(await media.cache.localPath(url))).durationMs ?? 0;
    expect(Math.abs((await lengthOf(a)) - 400)).toBeLessThan(80);
    expect(Math.abs((await lengthOf(b)) - data[1].duration!)).toBeLessThan(150);
    await host.stop();
  }, 120_000);
});
