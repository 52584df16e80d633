import { describe, expect, it } from 'vitest';
import {
  addCue,
  captionSettingsOf,
  cueAt,
  cuePlace,
  cueStyle,
  editCue,
  projectCues,
  removeCue,
  sceneScript,
  sceneScriptProblem,
  setCaptionSettings,
  setSceneCaptions,
} from '@common/captions/caption-ops';
import { drawCue } from '@common/captions/caption-pictures';
import { DEFAULT_CAPTION_SETTINGS } from '@common/captions/caption-track';
import {
  addScene,
  createProject,
  parseProject,
  setSceneDuration,
  setSceneVoice,
  type Project,
} from '@common/composition';
import { nodeRasteriser } from '../text/text-node';

function twoScenes(): Project {
  let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' });
  p = addScene(p, { id: 'scene-2' });
  p = setSceneDuration(p, 'scene-1', 4000);
  p = setSceneVoice(p, 'scene-1', {
    kind: 'tts',
    text: 'Hello there. Welcome to the show.',
    voiceId: 'v1',
    rate: '50%',
  });
  return setSceneCaptions(p, 'scene-1', [
    { text: 'Welcome to the show.', startMs: 1500, endMs: 3000 },
    { text: 'Hello there.', startMs: 200, endMs: 1200 },
  ]);
}

describe('caption operations', () => {
  it('sorts and clips made cues to their scene, and the project keeps them through a save', () => {
    let p = twoScenes();
    p = setSceneCaptions(p, 'scene-2', [{ text: 'Too long', startMs: 4000, endMs: 9000 }]);
    expect(p.scenes[0].captions?.map((c) => c.text)).toEqual(['Hello there.', 'Welcome to the show.']);
    expect(p.scenes[1].captions).toEqual([{ text: 'Too long', startMs: 4000, endMs: 5000 }]);
    const again = parseProject(JSON.stringify(p));
    expect(again.ok && again.project.scenes[0].captions).toEqual(p.scenes[0].captions);
  });

  it('a file whose cue ends before it starts is refused with the place named', () => {
    const p = twoScenes();
    const bad = {
      ...p,
      scenes: [{ ...p.scenes[0], captions: [{ text: 'x', startMs: 900, endMs: 400 }] }, p.scenes[1]],
    };
    const read = parseProject(JSON.stringify(bad));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain('scenes[0].captions[0].endMs: a cue must end after it starts');
  });

  it('an edge stops at the neighbour and a move keeps the length, stopping at the scene end', () => {
    const p = twoScenes();
    expect(editCue(p, 'scene-1', 0, { endMs: 2500 }).scenes[0].captions?.[0]).toEqual({
      text: 'Hello there.',
      startMs: 200,
      endMs: 1500,
    });
    expect(editCue(p, 'scene-1', 1, { startMs: 3500, endMs: 5000 }).scenes[0].captions?.[1]).toEqual({
      text: 'Welcome to the show.',
      startMs: 2500,
      endMs: 4000,
    });
    expect(editCue(p, 'scene-1', 1, { startMs: 2990 }).scenes[0].captions?.[1].startMs).toBe(2900);
    expect(editCue(p, 'scene-1', 0, { text: 'Hi there.' }).scenes[0].captions?.[0].text).toBe('Hi there.');
    // No change is the same document (no undo step).
    expect(editCue(p, 'scene-1', 0, { startMs: 200 })).toBe(p);
    expect(() => editCue(p, 'scene-1', 5, { text: 'x' })).toThrow('no caption 6');
    expect(() => editCue(p, 'scene-1', 0, { text: 'x'.repeat(401) })).toThrow('at most 400 characters');
  });

  it('adds a cue in a gap, refuses one where there is no room, and removes one', () => {
    const p = twoScenes();
    const added = addCue(p, 'scene-1', 3200);
    expect(added?.index).toBe(2);
    expect(added?.project.scenes[0].captions?.[2]).toEqual({ text: 'Caption', startMs: 3200, endMs: 4000 });
    expect(
      addCue(setSceneCaptions(p, 'scene-1', [{ text: 'all', startMs: 0, endMs: 4000 }]), 'scene-1', 1000),
    ).toBeNull();
    expect(removeCue(p, 'scene-1', 0).scenes[0].captions?.map((c) => c.text)).toEqual(['Welcome to the show.']);
  });

  it('puts every worded cue on the project clock, each scene after the one before', () => {
    let p = twoScenes();
    p = setSceneCaptions(p, 'scene-2', [
      { text: 'Second scene', startMs: 500, endMs: 1500 },
      { text: '   ', startMs: 2000, endMs: 2500 },
    ]);
    const cues = projectCues(p);
    expect(cues).toEqual([
      { text: 'Hello there.', startMs: 200, endMs: 1200 },
      { text: 'Welcome to the show.', startMs: 1500, endMs: 3000 },
      { text: 'Second scene', startMs: 4500, endMs: 5500 },
    ]);
    expect(cueAt(cues, 4600)?.text).toBe('Second scene');
    expect(cueAt(cues, 1300)).toBeNull();
  });

  it('finds the words a scene speaks, or says why there are none', () => {
    const p = twoScenes();
    expect(sceneScript(p.scenes[0])).toEqual({
      text: 'Hello there. Welcome to the show.',
      voiceId: 'v1',
      rate: 0.5,
      audioUrl: null,
    });
    expect(sceneScript(p.scenes[1])).toBeNull();
    expect(sceneScriptProblem(p.scenes[1])).toContain('no voiceover text');
    const recorded = setSceneVoice(p, 'scene-2', { kind: 'url', url: 'https://cdn.example/v.mp3' });
    expect(sceneScriptProblem(recorded.scenes[1])).toContain('recording');
  });

  it('scales the caption look with the frame and places it at the chosen edge', () => {
    const p = setCaptionSettings(twoScenes(), { position: 'top', margin: 0.1 });
    const settings = captionSettingsOf(p);
    const style = cueStyle(settings, 'Hi', { width: 960, height: 540 });
    expect(style.fontSize).toBe(DEFAULT_CAPTION_SETTINGS.style.fontSize / 2);
    expect(style.content).toBe('Hi');
    expect(cuePlace({ width: 200, height: 50 }, { width: 960, height: 540 }, settings)).toEqual({ x: 380, y: 54 });
    expect(
      cuePlace({ width: 200, height: 50 }, { width: 960, height: 540 }, { position: 'bottom', margin: 0.1 }),
    ).toEqual({ x: 380, y: 436 });
  });

  it('draws a caption whose box hugs its words, centred near the bottom', async () => {
    const output = { width: 1280, height: 720 };
    const short = await drawCue(nodeRasteriser(), DEFAULT_CAPTION_SETTINGS, 'Hi', output);
    const long = await drawCue(
      nodeRasteriser(),
      DEFAULT_CAPTION_SETTINGS,
      'A much longer caption that still fits on one or two lines of the frame',
      output,
    );
    expect(short.width).toBeLessThan(long.width);
    expect(long.width).toBeLessThanOrEqual(Math.ceil(output.width * DEFAULT_CAPTION_SETTINGS.widthShare) + 2);
    expect(short.x + short.width / 2).toBeCloseTo(output.width / 2, -1);
    expect(short.y + short.height).toBeCloseTo(output.height * (1 - DEFAULT_CAPTION_SETTINGS.margin), -1);
  });
});
