import { describe, expect, it } from 'vitest';
import { setSceneVoice, updateElement, validateProject, type Problem, type Project } from '@common/composition';
import { loadProject } from './helpers';

const codes = (problems: Problem[]) => problems.map((p) => `${p.level}:${p.code}`);

function patchElement(p: Project, sceneIndex: number, elementId: string, patch: Record<string, unknown>): Project {
  const scenes = p.scenes.map((s, i) =>
    i !== sceneIndex ? s : { ...s, elements: s.elements.map((e) => (e.id === elementId ? { ...e, ...patch } : e)) },
  );
  return { ...p, scenes };
}

describe('validateProject: avatar video', () => {
  const project = loadProject('two-scenes.project.json');

  it('accepts the fixture', () => {
    expect(validateProject(project)).toEqual([]);
  });

  it('pinpoints scale out of range with scene and element', () => {
    const problems = validateProject(patchElement(project, 1, 'logo', { width: 1.2 * project.output.width }));
    expect(problems.filter((p) => p.level === 'error')).toEqual([
      {
        level: 'error',
        code: 'scale-range',
        message:
          "Scene 2 (outro), element logo: is larger than the frame (1536×250 in a 1280×720 frame): the preview cuts what lies outside, but the service takes at most the frame's size (a scale of 1 on each side), so the request body cannot say this crop. Fit it inside the frame, or use a picture cut to the frame's shape.",
        sceneIndex: 1,
        sceneId: 'outro',
        elementId: 'logo',
      },
    ]);
  });

  it('needs a voice for every scene, and a generated voiceover before submitting', () => {
    const noVoice = setSceneVoice(project, 'outro', null);
    expect(codes(validateProject(noVoice))).toEqual(['error:voice-missing']);
    expect(codes(validateProject(noVoice, { purpose: 'preview' }))).toEqual(['warning:voice-missing']);
    const pending = setSceneVoice(project, 'intro', { kind: 'tts', text: 'Hi', voiceId: 'v1', rate: '50%' });
    expect(validateProject(pending)[0].message).toBe(
      'Scene 1 (Intro): the voiceover has not been generated yet; generate it before submitting.',
    );
    const rate = setSceneVoice(project, 'intro', {
      kind: 'tts',
      text: 'Hi',
      voiceId: 'v1',
      rate: '150%',
      audioUrl: 'https://a/b.mp3',
    });
    expect(codes(validateProject(rate))).toEqual(['error:rate-range']);
  });

  it('flags local files before submitting (taken-in files are uploaded, other local references refused) but not for a preview', () => {
    const local = updateElement(project, 'intro', 'clip', { url: 'file:///home/me/clip.mp4' });
    expect(codes(validateProject(local))).toEqual(['info:local-upload']);
    expect(codes(validateProject(updateElement(project, 'intro', 'clip', { url: 'blob:http://x/1' })))).toEqual([
      'error:local-file',
    ]);
    expect(validateProject(local, { purpose: 'preview' })).toEqual([]);
    const voice = setSceneVoice(project, 'outro', { kind: 'url', url: '/tmp/voice.wav' });
    expect(validateProject(voice)[0].message).toMatch(/^Scene 2 \(outro\): the voice audio is a local file/);
    expect(codes(validateProject(updateElement(project, 'intro', 'clip', { url: 'ftp://x/y.mp4' })))).toEqual([
      'error:url-invalid',
    ]);
  });

  it('requires avatar ids, warns about shared layers, off-frame elements and colour images', () => {
    const p1 = patchElement(project, 0, 'presenter', { avatarId: undefined });
    expect(codes(validateProject(p1))).toContain('error:avatar-id-missing');
    const p2 = patchElement(project, 0, 'clip', { layer: 3 });
    expect(validateProject(p2)).toMatchObject([
      { level: 'warning', code: 'layer-shared', message: expect.stringContaining('presenter, clip share layer 3') },
    ]);
    const p3 = patchElement(project, 1, 'logo', { x: 5000 });
    expect(codes(validateProject(p3))).toEqual(['error:scene-empty', 'error:off-frame']);
    const p4 = updateElement(project, 'outro', 'logo', { url: '#ff0000' });
    expect(codes(validateProject(p4))).toEqual(['error:colour-image']);
  });
});

describe('validateProject: elements against the frame', () => {
  const project = loadProject('two-scenes.project.json');
  const { width: W, height: H } = project.output;

  it('warns about an element sticking out of the frame, naming by how much on which side', () => {
    const partly = validateProject(patchElement(project, 1, 'logo', { x: -120, y: H - 40, width: 400, height: 200 }));
    expect(partly).toEqual([
      {
        level: 'warning',
        code: 'partly-off-frame',
        message:
          'Scene 2 (outro), element logo: sticks out of the frame (120 px on the left, 160 px at the bottom); the part outside is not shown.',
        sceneIndex: 1,
        sceneId: 'outro',
        elementId: 'logo',
      },
    ]);
    // Entirely outside is its own problem, not both.
    expect(codes(validateProject(patchElement(project, 1, 'logo', { x: W + 10 })))).toContain('error:off-frame');
    expect(codes(validateProject(patchElement(project, 1, 'logo', { x: W + 10 })))).not.toContain(
      'warning:partly-off-frame',
    );
    // Touching an edge from inside is fine.
    expect(validateProject(patchElement(project, 1, 'logo', { x: W - 400, y: 0, width: 400, height: 200 }))).toEqual(
      [],
    );
  });

  it('warns when a size stopped at the frame (scale 1) and the element lost its proportions', () => {
    const square = { mediaSize: { width: 1000, height: 1000 } };
    // Grown from a corner: the width stopped at the frame's while the height went on.
    const clamped = validateProject(
      patchElement(project, 1, 'logo', { ...square, x: 0, y: 0, width: W, height: H - 100 }),
    );
    expect(clamped).toMatchObject([{ level: 'warning', code: 'scale-at-limit', elementId: 'logo' }]);
    expect(clamped[0].message).toBe(
      `Scene 2 (outro), element logo: stopped at the frame's width (a scale of 1, the most the service takes) and is stretched wide: ${W}×${H - 100} against its own 1000×1000. Make it smaller to keep its proportions.`,
    );
    // A full-width element in its own proportions, or one smaller than the frame, is fine.
    expect(
      validateProject(
        patchElement(project, 1, 'logo', {
          mediaSize: { width: W * 2, height: 600 },
          x: 0,
          y: 0,
          width: W,
          height: 300,
        }),
      ),
    ).toEqual([]);
    expect(
      validateProject(patchElement(project, 1, 'logo', { ...square, x: 0, y: 0, width: H - 200, height: H - 200 })),
    ).toEqual([]);
    // A 4:3 picture pulled over a 16:9 frame is stretched too.
    expect(
      codes(
        validateProject(
          patchElement(project, 1, 'logo', { mediaSize: { width: 800, height: 600 }, x: 0, y: 0, width: W, height: H }),
        ),
      ),
    ).toEqual(['warning:scale-at-limit']);
  });
});

describe('validateProject: proportions', () => {
  const project = loadProject('two-scenes.project.json');
  const square = { mediaSize: { width: 1000, height: 1000 } };

  it('warns about an element drawn out of its proportions anywhere in the frame, and says how to keep them', () => {
    const stretched = validateProject(
      patchElement(project, 1, 'logo', { ...square, x: 10, y: 10, width: 300, height: 200 }),
    );
    expect(stretched).toMatchObject([{ level: 'warning', code: 'distorted', elementId: 'logo' }]);
    expect(stretched[0].message).toBe(
      'Scene 2 (outro), element logo: is drawn out of its proportions (stretched wide): 300×200 against its own 1000×1000. Resize it from a corner, or give it a height of 300, to keep them.',
    );
    // Within 1 % (whole pixels of a rounded size) is its own shape.
    expect(
      validateProject(patchElement(project, 1, 'logo', { ...square, x: 10, y: 10, width: 300, height: 298 })),
    ).toEqual([]);
  });
});

describe('validateProject: talking avatar', () => {
  const project = loadProject('talking.project.json');

  it('accepts the fixture', () => {
    expect(validateProject(project)).toEqual([]);
  });

  it('avatar_from rules: own avatar needs a URL, official needs an id', () => {
    expect(codes(validateProject(updateElement(project, 'scene-1', 'me', { url: '' })))).toEqual([
      'error:avatar-url-missing',
    ]);
    expect(codes(validateProject(updateElement(project, 'scene-1', 'me', { avatarFrom: 2 })))).toEqual([
      'error:avatar-id-missing',
    ]);
    expect(
      validateProject(updateElement(project, 'scene-1', 'me', { avatarFrom: 2, avatarId: 'anna', url: '' })),
    ).toEqual([]);
  });

  it('input_text needs voice_id; URL wins over text', () => {
    const noVoice = updateElement(project, 'scene-1', 'speech', { voiceId: undefined });
    expect(validateProject(noVoice)).toMatchObject([
      {
        code: 'text-voice-pair',
        elementId: 'speech',
        message: 'Scene 1 (scene-1), element speech: text and voice must be given together (input_text with voice_id).',
      },
    ]);
    const both = updateElement(project, 'scene-1', 'speech', { url: 'https://a/s.mp3' });
    expect(codes(validateProject(both))).toEqual(['warning:url-wins']);
  });

  it('applies the per-plan character limit', () => {
    const long = updateElement(project, 'scene-1', 'speech', { inputText: 'a'.repeat(5001) });
    expect(validateProject(long)[0].message).toMatch(/5001 characters; the Pro plan allows 5,000/);
    expect(validateProject(long, { plan: 'pro-max' })).toEqual([]);
    const huge = updateElement(project, 'scene-1', 'speech', { inputText: 'a'.repeat(50_001) });
    expect(codes(validateProject(huge, { plan: 'business' }))).toEqual(['error:text-too-long']);
  });

  it('one scene, an avatar and audio, no video', () => {
    const bare: Project = {
      ...project,
      scenes: [
        { ...project.scenes[0], elements: [] },
        { ...project.scenes[0], id: 's2', elements: [] },
      ],
    };
    expect(codes(validateProject(bare))).toEqual([
      'error:talking-avatar-scenes',
      'error:avatar-missing',
      'error:audio-missing',
      'error:scene-empty',
      'error:scene-empty',
    ]);
    const withVideo = updateElement(project, 'scene-1', 'panel', { type: 'video', url: 'https://a/v.mp4' });
    expect(codes(validateProject(withVideo))).toEqual(['error:video-in-talking-avatar']);
  });

  it('checks sizes even on a hand-built document', () => {
    const big: Project = { ...project, output: { width: 4000, height: 1920 } };
    expect(codes(validateProject(big))).toContain('error:output-size');
  });
});

describe('validateProject: a result nobody could see blocks sending', () => {
  const project = loadProject('two-scenes.project.json');
  const { width: W } = project.output;

  it('a zero-size element is an error to send and a warning for a preview', () => {
    const flat = patchElement(project, 0, 'clip', { height: 0 });
    expect(codes(validateProject(flat))).toEqual(['error:zero-size']);
    expect(codes(validateProject(flat, { purpose: 'preview' }))).toEqual(['warning:zero-size']);
  });

  it('an element wholly outside the frame is an error; one partly inside stays a warning', () => {
    expect(codes(validateProject(patchElement(project, 0, 'clip', { x: W + 1 })))).toEqual(['error:off-frame']);
    expect(codes(validateProject(patchElement(project, 0, 'clip', { x: W - 10 })))).toEqual([
      'warning:partly-off-frame',
    ]);
  });

  it('a scene with nothing visible is an error, named once for the scene', () => {
    // The outro's only element, moved out of the frame: the element and the scene both say so.
    const gone = validateProject(patchElement(project, 1, 'logo', { y: -5000 }));
    expect(codes(gone)).toEqual(['error:scene-empty', 'error:off-frame']);
    expect(gone[0]).toMatchObject({
      sceneId: 'outro',
      message: 'Scene 2 (outro): shows nothing but the background: add an avatar, picture or video inside the frame.',
    });
    const empty: Project = { ...project, scenes: [project.scenes[0], { ...project.scenes[1], elements: [] }] };
    expect(codes(validateProject(empty))).toEqual(['error:scene-empty']);
    expect(codes(validateProject(empty, { purpose: 'preview' }))).toEqual(['warning:scene-empty']);
    // One visible element is enough, even beside an invisible one.
    expect(codes(validateProject(patchElement(project, 0, 'clip', { width: 0 })))).toEqual(['error:zero-size']);
  });
});

describe('validateProject: a talking avatar must have something to say', () => {
  const project = loadProject('talking.project.json');
  const speechless = {
    ...project,
    scenes: [{ ...project.scenes[0], elements: project.scenes[0].elements.filter((e) => e.type !== 'audio') }],
  };

  it('an empty voiceover script is an error before sending', () => {
    const blank = setSceneVoice(speechless, 'scene-1', { kind: 'tts', text: '   ', voiceId: 'v-en-2', rate: '50%' });
    expect(validateProject(blank)).toMatchObject([
      {
        level: 'error',
        code: 'voice-text-missing',
        message: 'Scene 1 (scene-1): the voiceover script is empty; write what the avatar says.',
      },
    ]);
    expect(
      codes(
        validateProject(setSceneVoice(speechless, 'scene-1', { kind: 'tts', text: 'Hello', voiceId: '', rate: '50%' })),
      ),
    ).toEqual(['error:voice-id-missing']);
    expect(
      validateProject(
        setSceneVoice(speechless, 'scene-1', { kind: 'tts', text: 'Hello', voiceId: 'v-en-2', rate: '50%' }),
      ),
    ).toEqual([]);
    // A voiceover already generated is sent as its audio link: its script no longer matters.
    expect(
      validateProject(
        setSceneVoice(speechless, 'scene-1', {
          kind: 'tts',
          text: '',
          voiceId: 'v-en-2',
          rate: '50%',
          audioUrl: 'https://a/v.mp3',
        }),
      ),
    ).toEqual([]);
  });
});
