import { describe, expect, it } from 'vitest';
import {
  fitScenesToVoices,
  linkProblems,
  linkUrls,
  projectLinks,
  voiceDurationMs,
  type LinkReport,
} from '@common/composition';
import { loadProject } from './helpers';

const project = loadProject('two-scenes.project.json');
const ok = (url: string, kind: LinkReport['kind'], durationMs: number | null = null): LinkReport => ({
  url,
  ok: true,
  kind,
  durationMs,
  sizeBytes: 1000,
  checkedAt: 1,
});
const reports = (...list: LinkReport[]): Map<string, LinkReport> => new Map(list.map((r) => [r.url, r]));
const allFine = [
  ok('https://cdn.example/voice-1.mp3', 'audio', 2900),
  ok('https://cdn.example/backdrop.jpg', 'image'),
  ok('https://cdn.example/clip.mp4', 'video', 4000),
  ok('https://cdn.example/outro.wav', 'audio', 1500),
  ok('https://cdn.example/logo.png', 'image'),
];

describe('projectLinks', () => {
  it('lists every link the body sends, but not an official avatar named by its id', () => {
    expect(linkUrls(project)).toEqual(allFine.map((r) => r.url));
    expect(projectLinks(project).find((l) => l.elementId === 'logo')).toMatchObject({
      expects: 'image',
      where: 'Scene 2 (outro), element logo',
      what: 'the image',
    });
  });
});

describe('linkProblems', () => {
  it('has nothing to say about good links, or links not checked yet', () => {
    expect(linkProblems(project, reports(...allFine))).toEqual([]);
    expect(linkProblems(project, new Map())).toEqual([]);
  });

  it('names the scene, the element and the reason of a broken link', () => {
    const broken: LinkReport = { ...ok('https://cdn.example/logo.png', null), ok: false, reason: 'HTTP 404 Not Found' };
    expect(linkProblems(project, reports(...allFine.slice(0, 4), broken))).toEqual([
      {
        level: 'error',
        code: 'link-broken',
        message: 'Scene 2 (outro), element logo: the image link is broken (HTTP 404 Not Found).',
        url: 'https://cdn.example/logo.png',
        sceneIndex: 1,
        sceneId: 'outro',
        elementId: 'logo',
      },
    ]);
  });

  it('refuses a link of the wrong kind', () => {
    const problems = linkProblems(
      project,
      reports(...allFine.slice(1), ok('https://cdn.example/voice-1.mp3', 'image')),
    );
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['link-wrong-kind', 'Scene 1 (Intro): the voice audio link is a picture, not a sound.'],
    ]);
  });

  it('warns of a voice longer than its scene, with how much is cut', () => {
    const long = ok('https://cdn.example/outro.wav', 'audio', 7500);
    const problems = linkProblems(project, reports(...allFine.slice(0, 3), long, allFine[4]));
    expect(problems).toEqual([
      {
        level: 'warning',
        code: 'voice-too-long',
        message: 'Scene 2 (outro): the voice lasts 7.5 s but the scene 2.0 s; the last 5.5 s would be cut.',
        url: 'https://cdn.example/outro.wav',
        sceneIndex: 1,
        sceneId: 'outro',
      },
    ]);
    expect(voiceDurationMs(project, 'outro', reports(long))).toBe(7500);
    // Within 100 ms of the scene's end is not a cut worth a word.
    expect(linkProblems(project, reports(ok('https://cdn.example/outro.wav', 'audio', 2100)))).toEqual([]);
  });
});

describe('fitScenesToVoices', () => {
  const known = reports(
    ok('https://cdn.example/voice-1.mp3', 'audio', 7420),
    ok('https://cdn.example/outro.wav', 'audio', 1500),
  );

  it('makes the named scene as long as its voice, in 100 ms steps', () => {
    const fitted = fitScenesToVoices(project, known, ['intro']);
    expect(fitted.scenes.map((s) => s.durationMs)).toEqual([7500, 2000]);
    expect(linkProblems(fitted, known).filter((p) => p.code === 'voice-too-long')).toEqual([]);
  });

  it('fits every scene when none is named (voices shorter too), and changes nothing it cannot measure', () => {
    expect(fitScenesToVoices(project, known).scenes.map((s) => s.durationMs)).toEqual([7500, 1500]);
    expect(fitScenesToVoices(project, new Map())).toBe(project);
  });

  it('says so when a clip is shorter than its time on screen, which then stands on its last frame', () => {
    const clipScene = project.scenes.find((s) => s.elements.some((e) => e.url === 'https://cdn.example/clip.mp4'))!;
    const clip = clipScene.elements.find((e) => e.url === 'https://cdn.example/clip.mp4')!;
    const short = ok('https://cdn.example/clip.mp4', 'video', clipScene.durationMs - 1500);
    const problems = linkProblems(project, reports(...allFine.filter((r) => r.kind !== 'video'), short));
    expect(problems).toEqual([
      expect.objectContaining({
        level: 'warning',
        code: 'clip-shorter',
        elementId: clip.id,
        message: expect.stringMatching(
          /the clip lasts .* s but is on screen for .* s; it stands still on its last frame for the last 1\.5 s/,
        ),
      }),
    ]);
    // A clip timed to leave before its end says nothing; nor does one a frame short.
    const timed = {
      ...project,
      scenes: project.scenes.map((s) =>
        s.id === clipScene.id
          ? {
              ...s,
              elements: s.elements.map((e) => (e.id === clip.id ? { ...e, endMs: clipScene.durationMs - 1500 } : e)),
            }
          : s,
      ),
    };
    expect(linkProblems(timed, reports(short))).toEqual([]);
    expect(
      linkProblems(project, reports(ok('https://cdn.example/clip.mp4', 'video', clipScene.durationMs - 40))),
    ).toEqual([]);
  });
});
