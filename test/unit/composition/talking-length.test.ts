// A talking avatar's preview lasts as long as its speech, as the service's result does.
import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs, planFromProject, type InputRequest, type Project } from '@common/composition';
import { loadProject } from './helpers';

const talking = loadProject('talking.project.json');
const spoken = (ms: number) => (request: InputRequest) =>
  request.url
    ? `/cache/${request.url.split('/').pop()}`
    : request.text
      ? { path: '/speech/draft.wav', still: false, durationMs: ms }
      : null;

describe('a talking avatar plan', () => {
  // Fails when the scene's own length is kept (mutation: return the scene's durationMs for talking avatars).
  it('lasts as long as its measured speech, not the scene', () => {
    const plan = planFromProject(talking, spoken(5730.4));
    expect(plan.scenes[0]).toMatchObject({ durationMs: 5730, followsAudio: true });
    expect(buildFfmpegArgs(plan, { outputPath: '/out/t.mp4', quality: 'preview', width: 360 }).durationMs).toBe(5730);
    expect(plan.notes).toEqual([]);
  });

  it('keeps the scene length, and says the result will differ, when the speech is not there', () => {
    const plan = planFromProject(talking, (r) => (r.url ? `/cache/${r.url.split('/').pop()}` : null));
    expect(plan.scenes[0].durationMs).toBe(4000);
    expect(plan.scenes[0].followsAudio).toBeUndefined();
    expect(plan.notes).toContain(
      "The talking avatar lasts as long as its speech; without it this preview keeps the scene's 4.0 s.",
    );
  });

  // Fails when the scene voice is mixed in beside an audio element (mutation: drop the talking check):
  // the serialiser sends only the audio element then, so the service never speaks the scene voice.
  it('speaks the scene voice only when there is no audio element, as the body does', () => {
    const withVoice: Project = {
      ...talking,
      scenes: [{ ...talking.scenes[0], voice: { kind: 'url', url: 'https://cdn.example/voice.mp3' } }],
    };
    const asked: string[] = [];
    const plan = planFromProject(withVoice, (r) => {
      asked.push(r.type);
      return spoken(2000)(r);
    });
    expect(asked).not.toContain('voice');
    expect(plan.scenes[0].audio.map((a) => a.path)).toEqual(['/speech/draft.wav']);

    const voiceOnly: Project = {
      ...withVoice,
      scenes: [{ ...withVoice.scenes[0], elements: withVoice.scenes[0].elements.filter((e) => e.type !== 'audio') }],
    };
    expect(
      planFromProject(voiceOnly, (r) => (r.url ? { path: '/cache/voice.mp3', durationMs: 3000 } : null)).scenes[0],
    ).toMatchObject({ durationMs: 3000, followsAudio: true });
  });
});

describe('the speed of spoken text', () => {
  // Fails when a talking avatar's voiceover passes its rate on (mutation: always include rate): its body
  // takes none, so the service, and the draft voice, speak at their own speed.
  it('is the voiceover rate in an avatar video, none in a talking avatar', () => {
    const tts = { kind: 'tts' as const, text: 'Hello there', voiceId: 'v1', rate: '90%' };
    const asked: (string | undefined)[] = [];
    const record = (r: InputRequest) => {
      if (r.type === 'voice') asked.push(r.text?.rate);
      return null;
    };
    const voiceOnly: Project = {
      ...talking,
      scenes: [
        { ...talking.scenes[0], voice: tts, elements: talking.scenes[0].elements.filter((e) => e.type !== 'audio') },
      ],
    };
    planFromProject(voiceOnly, record);
    planFromProject({ ...voiceOnly, kind: 'avatar-video' }, record);
    expect(asked).toEqual([undefined, '90%']);
  });
});
