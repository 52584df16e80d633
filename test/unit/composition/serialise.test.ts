import { describe, expect, it } from 'vitest';
import { avatarVideoBodySchema, talkingAvatarBodySchema } from '@common/api';
import { exportBody, toAvatarVideoBody, toTalkingAvatarBody, updateElement, type Project } from '@common/composition';
import { golden, loadProject } from './helpers';

// The version-1 fixtures with the reading version 1 assumed: their bodies are byte for byte what they were.
const TOP_LEFT = { placement: { anchor: 'top-left', scale: 'frame' } } as const;

describe('avatar-video body', () => {
  const project = loadProject('two-scenes.project.json');

  it('matches the golden body and the wire schema', () => {
    const body = toAvatarVideoBody(project, { webhookUrl: 'https://hooks.example/done', ...TOP_LEFT });
    golden('two-scenes.avatar-video.body.json', body);
    expect(avatarVideoBodySchema.safeParse(body).success).toBe(true);
  });

  it('writes each box by the convention and lists elements bottom first', () => {
    const body = toAvatarVideoBody(project, TOP_LEFT);
    const first = body.data[0];
    expect(first.elements.map((e) => [e.id, e.layer_number])).toEqual([
      ['bg', 1],
      ['clip', 2],
      ['presenter', 3],
    ]);
    expect(first.elements[2]).toEqual({
      id: 'presenter',
      type: 'avatar',
      url: 'https://cdn.example/avatar.mp4',
      avatar_id: 'anna',
      scale_x: 0.4,
      scale_y: 0.8333,
      offset_x: 700,
      offset_y: 120,
      layer_number: 3,
    });
    expect(first).toMatchObject({
      width: 1280,
      height: 720,
      duration: 3000,
      ratio: '16:9',
      background: '#102030',
      avatarFrom: 2,
    });
    expect(first.voice).toEqual({ voice_url: 'https://cdn.example/voice-1.mp3' });
    expect(body.duration).toBe(5000);
    expect(body.webhookUrl).toBeUndefined();
  });
});

describe('talking-avatar body', () => {
  const project = loadProject('talking.project.json');

  it('matches the golden body and the wire schema', () => {
    const body = toTalkingAvatarBody(project, TOP_LEFT);
    golden('talking.talking-avatar.body.json', body);
    expect(talkingAvatarBodySchema.safeParse(body).success).toBe(true);
  });

  it('own avatar (3) sends its URL, no avatar_id; text audio sends input_text with voice_id', () => {
    const body = toTalkingAvatarBody(project, TOP_LEFT);
    expect(body.avatar_from).toBe(3);
    const avatar = body.elements.find((e) => e.type === 'avatar');
    expect(avatar).toEqual({
      type: 'avatar',
      url: 'https://cdn.example/me.mp4',
      scale_x: 0.8333,
      scale_y: 0.5,
      offset_x: 90,
      offset_y: 300,
      width: 900,
      height: 960,
    });
    expect(body.elements.find((e) => e.type === 'audio')).toEqual({
      type: 'audio',
      input_text: 'Welcome to the show',
      voice_id: 'v-en-2',
    });
    expect(body.elements.find((e) => e.type === 'image')).toMatchObject({ url: '#336699', width: 1080, height: 720 });
  });

  it('official avatar (2) sends avatar_id and no URL; an audio URL wins over text', () => {
    let p: Project = updateElement(project, 'scene-1', 'me', { avatarFrom: 2, avatarId: 'anna' });
    p = updateElement(p, 'scene-1', 'speech', { url: 'https://cdn.example/speech.mp3' });
    const body = toTalkingAvatarBody(p);
    expect(body.avatar_from).toBe(2);
    const avatar = body.elements.find((e) => e.type === 'avatar');
    expect(avatar?.avatar_id).toBe('anna');
    expect(avatar && 'url' in avatar).toBe(false);
    expect(body.elements.find((e) => e.type === 'audio')).toEqual({
      type: 'audio',
      url: 'https://cdn.example/speech.mp3',
    });
    expect(talkingAvatarBodySchema.safeParse(body).success).toBe(true);
  });

  it('uses the scene voice when there is no audio element', () => {
    const base = loadProject('talking.project.json');
    const scene = base.scenes[0];
    const p: Project = {
      ...base,
      scenes: [
        {
          ...scene,
          elements: scene.elements.filter((e) => e.type !== 'audio'),
          voice: { kind: 'tts', text: 'Hi', voiceId: 'v9', rate: '40%' },
        },
      ],
    };
    expect(toTalkingAvatarBody(p).elements.at(-1)).toEqual({ type: 'audio', input_text: 'Hi', voice_id: 'v9' });
  });
});

describe('exportBody', () => {
  it('returns the body with warnings, or every problem', () => {
    const ok = exportBody(loadProject('two-scenes.project.json'));
    expect(ok.ok).toBe(true);
    const bad = exportBody(loadProject('two-scenes.project.json'), { target: 'talking-avatar' });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.problems.map((p) => p.code)).toEqual(
        expect.arrayContaining(['talking-avatar-scenes', 'video-in-talking-avatar']),
      );
  });
});
