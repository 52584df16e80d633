// The editor's draft voice: a talking avatar's text spoken on this machine by espeak-ng, the preview
// as long as the speech; without espeak-ng, silence and a note, never a made-up sound.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addElement, createProject, type Project } from '@common/composition';
import { draftVoiceFor, wordsPerMinute } from '../../../electron/common/speech/draft-voice';
import { DraftVoice } from '../../../electron/services/media/draft-voice';
import type { ProcessRunner } from '../../../electron/services/media/process';
import { createMediaToolkit } from '../../../electron/services/media/toolkit';
import { maxVolume, probe } from '../../fixtures/composition/make-media';

const dir = mkdtempSync(join(tmpdir(), 'draft-voice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const onPath = { resolve: { env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null } };
const TEXT =
  'Welcome to the studio. This talking avatar speaks a little longer than five seconds, so the preview must follow it.';

function talking(): Project {
  let p = createProject({ id: 'talk', kind: 'talking-avatar', output: '16:9-720p' });
  p = addElement(p, 'scene-1', { id: 'panel', type: 'image', url: '#336699', x: 0, y: 0, width: 1280, height: 720 });
  return addElement(p, 'scene-1', {
    id: 'speech',
    type: 'audio',
    url: '',
    inputText: TEXT,
    voiceId: 'sandbox_ava',
    name: 'Speech',
    x: 0,
    y: 0,
    width: 0,
    height: 0,
  });
}

describe('draftVoiceFor', () => {
  // Fails when "Female" is read as male (mutation: test the male pattern first).
  it('takes the gender and accent of the service voice, English as the default', () => {
    expect(draftVoiceFor({ gender: 'Female', accent: 'American' }).espeak).toBe('en-us+f3');
    expect(draftVoiceFor({ gender: 'Male', accent: 'British' }).espeak).toBe('en-gb+m3');
    expect(draftVoiceFor({ gender: 'Female', accent: 'Scottish' }).espeak).toBe('en-gb-scotland+f3');
    expect(draftVoiceFor(null)).toMatchObject({ espeak: 'en-us', gender: null });
    expect([wordsPerMinute(0), wordsPerMinute(0.5), wordsPerMinute(1)]).toEqual([80, 180, 280]);
  });
});

describe('DraftVoice', () => {
  it("speaks through the engine at the voice's speed, the text from a file, and speaks a text once", async () => {
    const calls: string[][] = [];
    const runner = {
      run: async (bin: string, args: string[]) => {
        calls.push([bin, ...args]);
        const out = args[args.indexOf('-w') + 1];
        (await import('node:fs')).writeFileSync(out, Buffer.alloc(1000));
        return { code: 0, signal: null, stdout: '', stderr: '', aborted: false };
      },
    } as unknown as ProcessRunner;
    const voice = new DraftVoice({
      runner,
      dir: join(dir, 'fake'),
      engine: () => ({ bin: '/usr/bin/espeak-ng', prefix: [], name: 'espeak-ng' }),
      voices: async () => ({ name: 'Oliver', gender: 'Male', accent: 'British' }),
    });
    const first = await voice.speak('-s 999 is text, not an option', 'sandbox_oliver', 1);
    expect(first.description).toBe('espeak-ng, en-gb, male, 280 words a minute, for Oliver');
    expect(calls[0].slice(0, 7)).toEqual(['/usr/bin/espeak-ng', '-v', 'en-gb+m3', '-s', '280', '-p', '50']);
    expect(calls[0]).not.toContain('-s 999 is text, not an option');
    // Fails when a spoken text is not reused (mutation: drop the cache check in speak()).
    expect((await voice.speak('-s 999 is text, not an option', 'sandbox_oliver', 1)).path).toBe(first.path);
    expect(calls).toHaveLength(1);
    expect(readdirSync(join(dir, 'fake'))).toEqual([first.path.split('/').pop()]);
  });
});

describe('the local preview of a talking avatar', { timeout: 120_000 }, () => {
  // Fails when the text is left silent (mutation: no draftVoice in the toolkit) or the length stays the
  // scene's (mutation: talkingLength returns the scene's durationMs).
  it('speaks the text in a draft voice, labelled as one, and lasts as long as the speech', async () => {
    const toolkit = createMediaToolkit({
      dataDir: join(dir, 'spoken'),
      ...onPath,
      speech: { searchSystem: false },
      voiceList: async (id) => (id === 'sandbox_ava' ? { name: 'Ava', gender: 'Female', accent: 'American' } : null),
    });
    try {
      const out = join(dir, 'talk.mp4');
      const result = await toolkit.renderer.render(talking(), { quality: 'preview', outputPath: out });
      const speech = readdirSync(join(dir, 'spoken/media/speech')).filter((n) => n.endsWith('.wav'));
      expect(speech).toHaveLength(1);
      const spokenSeconds = probe(join(dir, 'spoken/media/speech', speech[0])).seconds;
      expect(spokenSeconds).toBeGreaterThan(5.5);
      expect(result.followsSpeech).toBe(true);
      expect(result.durationMs / 1000).toBeCloseTo(spokenSeconds, 1);
      expect(probe(out).seconds).toBeCloseTo(spokenSeconds, 0);
      expect(result.draftVoices).toEqual([
        'Scene 1 (scene-1), element speech (Speech): espeak-ng (WebAssembly build from npm), en-us, female, 180 words a minute, for Ava',
      ]);
      expect(result.notes).toEqual([]);
      expect(maxVolume(out, 0.5, 3)).toBeGreaterThan(-30);
    } finally {
      await toolkit.dispose();
    }
  });

  // Fails when a missing engine fakes a sound or fails the render (mutation: throw instead of the note).
  it('stays silent at the scene length without a draft voice, and says so', async () => {
    const toolkit = createMediaToolkit({
      dataDir: join(dir, 'silent'),
      ...onPath,
      speech: { espeakPath: '/nonexistent/espeak-ng' },
    });
    try {
      const out = join(dir, 'silent.mp4');
      const result = await toolkit.renderer.render(talking(), { quality: 'preview', outputPath: out });
      expect(result).toMatchObject({ durationMs: 5000, followsSpeech: false, draftVoices: [] });
      expect(result.notes[0]).toMatch(
        /^No draft voice is installed, so text the service would speak is silent in this preview\. Install espeak-ng/,
      );
      expect(result.notes).toContain(
        "The talking avatar lasts as long as its speech; without it this preview keeps the scene's 5.0 s.",
      );
      expect(maxVolume(out, 0, 5)).toBeLessThan(-90);
      expect(existsSync(join(dir, 'silent/media/speech'))).toBe(false);
    } finally {
      await toolkit.dispose();
    }
  });
});
