import { describe, expect, it } from 'vitest';
import {
  buildFfmpegArgs,
  buildPosterArgs,
  previewWidth,
  sceneAt,
  planFromAvatarVideoBody,
  planFromProject,
  planFromTalkingAvatarBody,
  type InputRequest,
  type RenderPlan,
} from '@common/composition';
import { golden, loadProject } from './helpers';

/** Maps every URL to a fake cache path; speech text to a fake synthesised file. */
const cached = (request: InputRequest): string | null => {
  if (request.url) return `/cache/${request.url.split('/').pop()}`;
  if (request.text) return `/tts/${request.text.voiceId}.wav`;
  return null;
};

describe('compositor golden arguments', () => {
  it('two-scene avatar video, preview', () => {
    const plan = planFromProject(loadProject('two-scenes.project.json'), cached);
    const command = buildFfmpegArgs(plan, {
      outputPath: '/out/preview.mp4.part',
      quality: 'preview',
      width: 640,
      progress: true,
    });
    golden('two-scenes.preview.json', { args: command.args, graph: command.filterGraph.split(';') });
    expect([command.width, command.height, command.durationMs]).toEqual([640, 360, 5000]);
  });

  it('two-scene avatar video, full-resolution draft', () => {
    const plan = planFromProject(loadProject('two-scenes.project.json'), cached);
    const command = buildFfmpegArgs(plan, { outputPath: '/out/draft.mp4', quality: 'draft' });
    golden('two-scenes.draft.json', { args: command.args, graph: command.filterGraph.split(';') });
    expect([command.width, command.height]).toEqual([1280, 720]);
  });

  it('talking avatar with a colour panel and a text audio element', () => {
    const plan = planFromProject(loadProject('talking.project.json'), cached);
    const command = buildFfmpegArgs(plan, { outputPath: '/out/t.mp4', quality: 'preview', width: 360 });
    golden('talking.preview.json', { args: command.args, graph: command.filterGraph.split(';') });
  });
});

describe('poster frame arguments', () => {
  it('composes only the scene under the playhead, video only, and seeks within it', () => {
    const plan = planFromProject(loadProject('two-scenes.project.json'), cached);
    const command = buildPosterArgs(plan, { atMs: 3500, outputPath: '/out/poster.jpg', width: 640 });
    golden('two-scenes.poster.json', { args: command.args });
    expect(command.args.filter((a) => a === '-i')).toHaveLength(1);
    expect(command.args.slice(command.args.indexOf('-ss'), command.args.indexOf('-ss') + 2)).toEqual(['-ss', '0.500']);
    expect(command.filterGraph).not.toContain('aout');
  });

  it('finds the scene at a time, clamped to the timeline', () => {
    const plan = { scenes: [{ durationMs: 1000 }, { durationMs: 500 }] };
    expect(sceneAt(plan, 0)).toEqual({ sceneIndex: 0, offsetMs: 0 });
    expect(sceneAt(plan, 1000)).toEqual({ sceneIndex: 1, offsetMs: 0 });
    expect(sceneAt(plan, 99_999)).toEqual({ sceneIndex: 1, offsetMs: 500 });
    expect(sceneAt(plan, -5)).toEqual({ sceneIndex: 0, offsetMs: 0 });
  });

  it('sizes previews by their longer side at the output aspect', () => {
    expect(previewWidth({ width: 1920, height: 1080 })).toBe(640);
    expect(previewWidth({ width: 1080, height: 1920 })).toBe(360);
    expect(previewWidth({ width: 320, height: 180 })).toBe(320);
  });
});

describe('render plan from a project', () => {
  const plan = planFromProject(loadProject('two-scenes.project.json'), cached);

  it('orders layers bottom first and keeps boxes in output pixels', () => {
    const scene = plan.scenes[0];
    expect(scene.layers.map((l) => l.label)).toEqual([
      'scene 1 (Intro), element bg (Backdrop)',
      'scene 1 (Intro), element clip',
      'scene 1 (Intro), element presenter',
    ]);
    expect(scene.layers[2].box).toEqual({ x: 700, y: 120, width: 512, height: 599.98 });
    expect(scene.layers[2].source).toEqual({
      kind: 'media',
      input: { path: '/cache/avatar.mp4', still: false, loop: true },
    });
    expect(scene.layers[0].source).toMatchObject({ input: { still: true, loop: false } });
    expect(scene.audio).toEqual([{ path: '/cache/voice-1.mp3', label: 'scene 1 (Intro), voice' }]);
  });

  it('notes media it cannot resolve instead of failing', () => {
    const silent = planFromProject(loadProject('two-scenes.project.json'), (r) =>
      r.role === 'voice' ? null : cached(r),
    );
    expect(silent.scenes.every((s) => s.audio.length === 0)).toBe(true);
    expect(silent.notes).toEqual([
      'scene 1 (Intro), voice: no audio yet, the preview is silent there',
      'scene 2 (outro), voice: no audio yet, the preview is silent there',
    ]);
  });

  it('passes TTS text to the resolver when no audio was generated', () => {
    const project = loadProject('two-scenes.project.json');
    const voice = project.scenes[0].voice;
    if (voice?.kind !== 'tts') throw new Error('fixture changed');
    const requests: InputRequest[] = [];
    planFromProject(
      { ...project, scenes: [{ ...project.scenes[0], voice: { ...voice, audioUrl: undefined } }] },
      (r) => {
        requests.push(r);
        return null;
      },
    );
    expect(requests.at(-1)).toMatchObject({
      role: 'voice',
      url: null,
      text: { text: 'Hello there', voiceId: 'v-en-1', rate: '50%' },
    });
  });
});

describe('render plans from request bodies', () => {
  it('an avatar-video body plans like the project it came from', () => {
    const body = {
      data: [
        {
          width: 1280,
          height: 720,
          duration: 3000,
          voice: { voice_url: 'https://cdn.example/voice-1.mp3' },
          background: '#102030',
          elements: [
            {
              id: 'presenter',
              type: 'avatar' as const,
              url: 'https://cdn.example/avatar.mp4',
              avatar_id: 'anna',
              scale_x: 0.4,
              scale_y: 0.8333,
              offset_x: 700,
              offset_y: 120,
              layer_number: 3,
            },
            {
              id: 'bg',
              type: 'image' as const,
              url: 'https://cdn.example/backdrop.jpg',
              scale_x: 1,
              scale_y: 1,
              offset_x: 0,
              offset_y: 0,
              layer_number: 1,
            },
          ],
        },
        { width: 1280, height: 720, voice: { voice_id: 'v1' }, elements: [] },
      ],
      duration: 5000,
    };
    const plan: RenderPlan = planFromAvatarVideoBody(body, cached, {
      placement: { anchor: 'top-left', scale: 'frame' },
    });
    expect(plan.background).toBe('#102030');
    expect(plan.scenes.map((s) => s.durationMs)).toEqual([3000, 2000]);
    expect(plan.scenes[0].layers.map((l) => l.box)).toEqual([
      { x: 0, y: 0, width: 1280, height: 720 },
      { x: 700, y: 120, width: 512, height: 599.976 },
    ]);
    expect(plan.notes).toEqual(['scene 2 (scene-2), voice: voice_id only, no audio to play']);
    // Read by the centre (the sandbox's default), the same offsets mark the boxes' centres.
    expect(planFromAvatarVideoBody(body, cached).scenes[0].layers.map((l) => l.box)).toEqual([
      { x: -640, y: -360, width: 1280, height: 720 },
      { x: 444, y: 120 - 599.976 / 2, width: 512, height: 599.976 },
    ]);
  });

  it('a talking-avatar body: official avatar resolved by id, text audio, colour image', () => {
    const requests: InputRequest[] = [];
    const plan = planFromTalkingAvatarBody(
      {
        width: 1080,
        height: 1920,
        avatar_from: 2,
        elements: [
          { type: 'avatar', avatar_id: 'anna', scale_x: 1, scale_y: 0.5, offset_x: 0, offset_y: 0 },
          { type: 'image', url: '#336699', scale_x: 1, scale_y: 0.5, offset_x: 0, offset_y: 960 },
          { type: 'audio', input_text: 'Hi', voice_id: 'v2' },
        ],
      },
      (r) => {
        requests.push(r);
        return r.avatarId ? `/avatars/${r.avatarId}.mp4` : cached(r);
      },
      { durationMs: 2500 },
    );
    expect(requests.map((r) => [r.type, r.url, r.avatarId])).toEqual([
      ['avatar', null, 'anna'],
      ['audio', null, undefined],
    ]);
    expect(plan.scenes[0]).toMatchObject({
      durationMs: 2500,
      audio: [{ path: '/tts/v2.wav' }],
      layers: [
        { source: { kind: 'media', input: { path: '/avatars/anna.mp4', loop: true } } },
        { source: { kind: 'colour', colour: '#336699' } },
      ],
    });
  });
});
