// A scene may follow its voice: its length in the avatar-video body and in the preview's plan is then
// its voice's, and a fixed scene whose voice runs past it is said to be cut off.
import { describe, expect, it } from 'vitest';
import {
  exportBody,
  followsVoice,
  planFromProject,
  voiceOverruns,
  type InputRequest,
  type Project,
} from '@common/composition';
import { fillTemplate } from '@common/campaign/variables';
import type { AvatarVideoBody } from '@common/api/video';
import { loadProject } from './helpers';

const base = loadProject('two-scenes.project.json');
/** The intro follows its voice; the outro keeps its 2.0 s. */
const following: Project = {
  ...base,
  scenes: [{ ...base.scenes[0], followVoice: true }, { ...base.scenes[1] }],
};
const voiced = (ms: number) => (request: InputRequest) =>
  request.url && request.type === 'voice'
    ? { path: '/cache/voice.mp3', still: false, durationMs: ms }
    : request.url
      ? `/cache/${request.url.split('/').pop()}`
      : null;

describe('a scene that follows its voice', () => {
  it("takes the scene's own choice first, then the project's, and a template's variable script follows by default", () => {
    expect(followsVoice(following, following.scenes[0])).toBe(true);
    expect(followsVoice({ ...following, followVoice: true }, { ...following.scenes[0], followVoice: false })).toBe(
      false,
    );
    expect(followsVoice({ ...base, followVoice: true }, base.scenes[1])).toBe(true);
    expect(followsVoice(base, base.scenes[0])).toBe(false);
    const template: Project = {
      ...base,
      scenes: [{ ...base.scenes[0], voice: { kind: 'tts', text: 'Hi {{name}}', voiceId: 'v-en-1', rate: '50%' } }],
    };
    expect(followsVoice(template, template.scenes[0])).toBe(true);
    // Filled for a row, the placeholder is gone: the decision is carried on the row's scene.
    const filled = fillTemplate({ project: template, fileName: '{{name}}' }, { name: 'Ana' }, { row: '1' }).project;
    expect(filled.scenes[0]).toMatchObject({ followVoice: true, voice: { text: 'Hi Ana' } });
    // A talking avatar's body sends no durations: its scenes never follow (its result lasts as its speech does).
    expect(followsVoice({ ...template, kind: 'talking-avatar' }, template.scenes[0])).toBe(false);
  });

  // Fails when exportBody ignores the measured lengths (mutation: drop fitFollowingScenes).
  it("serialises the voice's length (rounded up to 100 ms) as its item's duration and the sum as the body's", () => {
    const result = exportBody(following, { voiceLengths: { intro: 6430, outro: 2900 } });
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('\n'));
    const body = result.body as AvatarVideoBody;
    // The outro is fixed: its voice's length does not move it (its overrun is the check's to name).
    expect(body.data.map((item) => item.duration)).toEqual([6500, 2000]);
    expect(body.duration).toBe(8500);
    // Without lengths, the scene's last known length is sent.
    const unknown = exportBody(following);
    expect(unknown.ok && (unknown.body as AvatarVideoBody).data.map((item) => item.duration)).toEqual([3000, 2000]);
  });

  it('names each fixed scene whose voice runs past its end', () => {
    expect(voiceOverruns(following, { intro: 6430, outro: 2900 })).toEqual([
      { sceneIndex: 1, sceneId: 'outro', voiceMs: 2900, sceneMs: 2000 },
    ]);
    expect(voiceOverruns(following, { intro: 6430, outro: 2050 })).toEqual([]);
    // A talking avatar lasts as long as its speech: nothing is cut.
    expect(voiceOverruns({ ...following, kind: 'talking-avatar' }, { intro: 6430, outro: 2900 })).toEqual([]);
  });

  // Fails when the preview keeps the scene's own length (mutation: voicedLength returns scene.durationMs).
  it('previews as long as its voice, and a fixed scene says its voice is cut off', () => {
    const plan = planFromProject(following, voiced(6430));
    expect(plan.scenes.map((s) => [s.durationMs, s.followsAudio])).toEqual([
      [6500, true],
      [2000, undefined],
    ]);
    expect(plan.notes).toEqual([
      'Scene 2 (outro): the voice runs 6.4 s, the scene is 2.0 s, so the video cuts the voice off there (lengthen the scene, let it follow its voice, or shorten the text).',
    ]);
  });
});
