// Music under the voice, the pure side: which track each scene plays and where in it, the operations,
// the request bodies (the mix goes out as the scene's voice), the checks, and the ffmpeg arguments.
import { describe, expect, it } from 'vitest';
import {
  defaultMusicTrack,
  exportBody,
  musicPlans,
  parseProject,
  patchMusic,
  setLoudness,
  setProjectMusic,
  setSceneMusic,
  setSceneVoice,
  toAvatarVideoBody,
  toTalkingAvatarBody,
  validateProject,
  type Project,
} from '@common/composition';
import {
  DUCK_DOWN_MS,
  DUCK_HOLD_MS,
  DUCK_UP_MS,
  duckingExpression,
  mixArgs,
  musicStartMs,
  parseLevels,
  parseLoudnorm,
  speechSpans,
  loudnessArgs,
} from '@common/composition/music-mix-args';
import { golden, loadProject } from './helpers';

const song = defaultMusicTrack('file:///granted/abc/song.mp3', 'song.mp3');
const twoScenes = (): Project => setProjectMusic(loadProject('two-scenes.project.json'), song);

describe('which music each scene plays', () => {
  it('runs the project track on across the scenes that share it, fading in at the first and out at the last', () => {
    const plans = musicPlans(twoScenes());
    expect(plans.map((p) => [p.sceneId, p.offsetMs, p.fadeIn, p.fadeOut, p.minLengthMs, p.shared])).toEqual([
      ['intro', 0, true, false, 3000, true],
      ['outro', 3000, false, true, 2000, true],
    ]);
  });

  it("lets a scene's own track, or none, override the project's", () => {
    const own = { ...song, url: 'file:///granted/x/other.m4a', name: 'other.m4a', startMs: 500 };
    const withOwn = setSceneMusic(twoScenes(), 'outro', own);
    expect(musicPlans(withOwn).map((p) => [p.sceneId, p.track.name, p.offsetMs, p.fadeIn, p.fadeOut])).toEqual([
      ['intro', 'song.mp3', 0, true, true],
      ['outro', 'other.m4a', 500, true, true],
    ]);
    const silent = setSceneMusic(twoScenes(), 'intro', { none: true });
    expect(musicPlans(silent).map((p) => [p.sceneId, p.offsetMs, p.fadeIn])).toEqual([['outro', 0, true]]);
    // Back to following the project's track.
    expect(musicPlans(setSceneMusic(silent, 'intro', null))).toHaveLength(2);
  });

  it('wraps looped music and ends unlooped music', () => {
    expect(musicStartMs(25_000, 10_000, true)).toBe(5000);
    expect(musicStartMs(25_000, 10_000, false)).toBeNull();
    expect(musicStartMs(4000, 10_000, false)).toBe(4000);
  });
});

describe('music operations', () => {
  it('are undoable steps: a change that changes nothing returns the same document', () => {
    const p = twoScenes();
    expect(patchMusic(p, { scope: 'project' }, { duckDb: 12 })).toBe(p);
    const louder = patchMusic(p, { scope: 'project' }, { levelDb: -6 });
    expect(louder.music?.levelDb).toBe(-6);
    expect(p.music?.levelDb).toBe(-10);
    expect(setProjectMusic(setProjectMusic(p, null), null).music).toBeUndefined();
  });

  it('refuses settings out of range with a message naming them', () => {
    expect(() => patchMusic(twoScenes(), { scope: 'project' }, { duckDb: 45 })).toThrow(/duckDb/);
    expect(() => patchMusic(loadProject('two-scenes.project.json'), { scope: 'project' }, { duckDb: 3 })).toThrow(
      /no music/,
    );
    expect(() => setLoudness(twoScenes(), { lufs: -3, truePeakDb: -1 })).toThrow(/−40 to −10 LUFS/);
  });

  it('sets the loudness by preset or by hand', () => {
    expect(setLoudness(twoScenes(), 'broadcast').loudness).toEqual({ preset: 'broadcast', lufs: -23, truePeakDb: -1 });
    expect(setLoudness(twoScenes(), { lufs: -18, truePeakDb: -2 }).loudness).toEqual({
      preset: 'custom',
      lufs: -18,
      truePeakDb: -2,
    });
  });

  it('survives saving and opening', () => {
    const p = setLoudness(setSceneMusic(twoScenes(), 'outro', { none: true }), 'social');
    const parsed = parseProject(JSON.stringify(p));
    expect(parsed.ok && parsed.project).toEqual(p);
  });
});

describe('request bodies with music', () => {
  it('avatar video: a scene with music sends the studio mix as its voice; one without sends its own voice', () => {
    const p = setSceneMusic(twoScenes(), 'outro', { none: true });
    const body = toAvatarVideoBody(p);
    expect(body.data.map((d) => d.voice)).toEqual([
      { voice_url: 'studio-music:intro' },
      { voice_url: 'https://cdn.example/outro.wav' },
    ]);
    golden('avatar-video-music.json', body);
  });

  it('talking avatar: the speech goes out as one audio element, the mix, in place of the audio element', () => {
    let p = setProjectMusic(loadProject('talking.project.json'), song);
    p = {
      ...p,
      scenes: [
        {
          ...p.scenes[0],
          elements: p.scenes[0].elements.map((e) =>
            e.type === 'audio' ? { ...e, url: 'https://cdn.example/speech.mp3' } : e,
          ),
        },
      ],
    };
    const body = toTalkingAvatarBody(p);
    expect(body.elements.filter((e) => e.type === 'audio')).toEqual([{ type: 'audio', url: 'studio-music:scene-1' }]);
    golden('talking-avatar-music.json', body);
  });

  it('an avatar-video scene of music alone is sendable: the music is its voice', () => {
    const p = setSceneVoice(twoScenes(), 'outro', null);
    const result = exportBody(p);
    expect(result.ok).toBe(true);
    expect(validateProject(p).map((x) => x.code)).not.toContain('voice-missing');
    // Without music the same scene needs a voice, as before.
    expect(validateProject(setProjectMusic(p, null)).map((x) => x.code)).toContain('voice-missing');
  });

  it('a talking avatar whose speech is only text cannot have music until the voiceover exists', () => {
    const p = setProjectMusic(loadProject('talking.project.json'), song);
    const problems = validateProject(p).filter((x) => x.code === 'music-needs-audio');
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/Generate the voiceover first/);
    expect(validateProject(p, { purpose: 'preview' }).map((x) => x.code)).not.toContain('music-needs-audio');
  });

  it('says at submit that the mix is made here and uploaded', () => {
    const codes = validateProject(twoScenes()).filter((x) => x.code === 'music-mixed');
    expect(codes.map((x) => x.sceneId)).toEqual(['intro', 'outro']);
  });

  it('refuses a music reference the studio cannot open', () => {
    const p = setProjectMusic(loadProject('two-scenes.project.json'), { ...song, url: '/home/me/song.mp3' });
    expect(validateProject(p).find((x) => x.code === 'music-file')?.level).toBe('error');
  });
});

describe('ducking and loudness arguments', () => {
  const levels = (dbs: number[]): { atMs: number; db: number }[] => dbs.map((db, i) => ({ atMs: i * 100, db }));

  it('finds the speech by its level against the voice, joining phrases closer than the ramps', () => {
    // 1 s speech, 0.5 s pause (joined), 1 s speech, 2 s pause, 0.3 s speech; 0.1 s click ignored.
    const quiet = -70;
    const dbs = [
      ...Array(10).fill(-20),
      ...Array(5).fill(quiet),
      ...Array(10).fill(-22),
      ...Array(20).fill(quiet),
      ...Array(3).fill(-25),
      ...Array(20).fill(quiet),
      -18,
      ...Array(10).fill(quiet),
    ];
    expect(speechSpans(levels(dbs), -21, 7900)).toEqual([
      { startMs: 0, endMs: 2500 },
      { startMs: 4500, endMs: 4800 },
    ]);
    expect(speechSpans(levels(dbs), null, 7900)).toEqual([]);
  });

  it('builds a gain envelope: down before each phrase, up after it, nothing when there is no ducking', () => {
    const expr = duckingExpression([{ startMs: 1000, endMs: 2000 }], 12)!;
    expect(expr).toBe(
      `pow(10,-12*(clip((t-${((1000 - DUCK_DOWN_MS) / 1000).toFixed(3)})/0.250,0,1)*clip((${((2000 + DUCK_HOLD_MS + DUCK_UP_MS) / 1000).toFixed(3)}-t)/0.600,0,1))/20)`,
    );
    expect(duckingExpression([{ startMs: 1000, endMs: 2000 }], 0)).toBeNull();
    expect(duckingExpression([], 12)).toBeNull();
  });

  it('pins the mix and loudness passes', () => {
    const plan = { track: song, offsetMs: 2000, fadeIn: true, fadeOut: false, minLengthMs: 6000 };
    const speech = [{ startMs: 500, endMs: 2500 }];
    golden('music-mix-args.json', {
      mix: mixArgs(
        {
          voicePath: '/v.wav',
          voiceMs: 4000,
          music: { path: '/m.mp3', durationMs: 30_000 },
          plan,
          musicGainDb: -3.5,
          mixGainDb: 2,
          speech,
        },
        6000,
        { preset: 'web', lufs: -16, truePeakDb: -1.5 },
        '/out.wav',
      ),
      musicAlone: mixArgs(
        {
          voicePath: null,
          voiceMs: 0,
          music: { path: '/m.mp3', durationMs: 30_000 },
          plan: { ...plan, track: { ...song, loop: false } },
          musicGainDb: 0,
          mixGainDb: 0,
          speech: [],
        },
        6000,
        { preset: 'broadcast', lufs: -33, truePeakDb: -1 },
        '/out.wav',
      ),
      loudness: loudnessArgs(
        '/out.wav',
        {
          inputI: -17.2,
          inputTp: -3.1,
          inputLra: 8.4,
          inputThresh: -27.9,
          targetOffset: 0.2,
          outputI: null,
          normalization: 'dynamic',
        },
        { preset: 'web', lufs: -16, truePeakDb: -1.5 },
        '/out.mp3',
      ),
    });
  });

  it("reads ffmpeg's level prints and loudnorm's JSON", () => {
    expect(
      parseLevels(
        'frame:0    pts:0       pts_time:0\nlavfi.astats.Overall.RMS_level=-21.07\nframe:1    pts:4800    pts_time:0.1\nlavfi.astats.Overall.RMS_level=-inf\n',
      ),
    ).toEqual([
      { atMs: 0, db: -21.07 },
      { atMs: 100, db: -Infinity },
    ]);
    const log =
      '[Parsed_loudnorm_0 @ 0x1]\n{\n\t"input_i" : "-22.09",\n\t"input_tp" : "-18.06",\n\t"input_lra" : "0.10",\n\t"input_thresh" : "-32.09",\n\t"output_i" : "-23.95",\n\t"output_tp" : "-20.00",\n\t"output_lra" : "0.00",\n\t"output_thresh" : "-33.95",\n\t"normalization_type" : "dynamic",\n\t"target_offset" : "-0.05"\n}\n';
    expect(parseLoudnorm(log)).toEqual({
      inputI: -22.09,
      inputTp: -18.06,
      inputLra: 0.1,
      inputThresh: -32.09,
      targetOffset: -0.05,
      outputI: -23.95,
      normalization: 'dynamic',
    });
    expect(parseLoudnorm(log.replace('-22.09', '-inf'))?.inputI).toBeNull();
    expect(parseLoudnorm('no json here')).toBeNull();
  });
});
