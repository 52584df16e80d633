import { describe, expect, it } from 'vitest';
import { explainFailure, serviceReasons } from '@common/composition';
import { loadProject } from './helpers';

const project = loadProject('two-scenes.project.json');
const request = {
  data: [
    {
      voice: { voice_url: 'https://cdn.example/voice-1.mp3' },
      elements: [
        { id: 'bg', type: 'image', url: 'https://cdn.example/backdrop.jpg' },
        { id: 'clip', type: 'video', url: 'https://cdn.example/clip.mp4' },
      ],
    },
    {
      voice: { voice_url: 'https://cdn.example/outro.wav' },
      elements: [{ id: 'logo', type: 'image', url: 'https://cdn.example/logo.png' }],
    },
  ],
};

describe('explainFailure', () => {
  it('reads every reason field the service fills, once each', () => {
    expect(serviceReasons({ error_reasons: ['a', 'b'], video_fail_reason: 'a', faceswap_fail_reason: 'c' })).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(serviceReasons(null)).toEqual([]);
  });

  it('names the scene and element a body path points at, with the link and the reason in plain words', () => {
    const [reason] = explainFailure(
      {
        answer: { video_status: 4, error_reasons: ['data[1].elements[0].url could not be downloaded: HTTP 404'] },
        request,
      },
      project,
    );
    expect(reason).toEqual({
      text: 'Scene 2 (outro), element logo (logo.png): the service could not download the image link (HTTP 404).',
      raw: 'data[1].elements[0].url could not be downloaded: HTTP 404',
      sceneIndex: 1,
      sceneId: 'outro',
      elementId: 'logo',
      url: 'https://cdn.example/logo.png',
    });
  });

  it('without the project, names the element by its id and file name; a voice by its scene', () => {
    const reasons = explainFailure({
      answer: { error_reasons: ['data[0].elements[1].url could not be downloaded: HTTP 403'] },
      request,
      error: { message: 'data[0].voice.voice_url could not be downloaded: timed out' },
    });
    expect(reasons.map((r) => r.text)).toEqual([
      'Scene 1, element clip (clip.mp4): the service could not download the video link (HTTP 403).',
      'Scene 1: the service could not download the voice audio (timed out).',
    ]);
    expect(reasons[1]).toMatchObject({ sceneIndex: 0, elementId: null, url: 'https://cdn.example/voice-1.mp3' });
  });

  it('passes on a reason that points nowhere as the service wrote it', () => {
    expect(
      explainFailure({
        answer: { faceswap_fail_reason: 'no face found' },
        request: {},
        error: { message: 'The service reported the job as failed (status 4).' },
      }),
    ).toEqual([
      {
        text: 'The service says: no face found',
        raw: 'no face found',
        sceneIndex: null,
        sceneId: null,
        elementId: null,
        url: null,
      },
    ]);
  });
});
