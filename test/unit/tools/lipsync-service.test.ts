import { describe, expect, it } from 'vitest';
import type { MediaInfo } from '@common/composition/media-info';
import type { JobSubmission, SubmitResult } from '@common/bridge';
import { LipSyncService } from '../../../electron/services/tools/lipsync-service';
import { ToolRefusal } from '../../../electron/services/tools/tool-deps';

const video = (over: Partial<MediaInfo> = {}): MediaInfo => ({
  kind: 'video',
  durationMs: 10_000,
  width: 640,
  height: 360,
  fps: 25,
  videoCodec: 'h264',
  audioCodec: 'aac',
  hasVideo: true,
  hasAudio: true,
  sizeBytes: 5_000_000,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  format: 'mp4',
  rotation: 0,
  ...over,
});
const audio = (over: Partial<MediaInfo> = {}): MediaInfo => ({
  kind: 'audio',
  durationMs: 10_000,
  width: null,
  height: null,
  fps: null,
  videoCodec: null,
  audioCodec: 'mp3',
  hasVideo: false,
  hasAudio: true,
  sizeBytes: 100_000,
  formatName: 'mp3',
  format: 'mp3',
  rotation: 0,
  ...over,
});

function fakes(media: Record<string, MediaInfo>) {
  const linked: Record<string, string>[] = [];
  const submitted: JobSubmission[] = [];
  const service = new LipSyncService({
    probe: async (reference) => media[reference] ?? Promise.reject(new Error(`no ${reference}`)),
    link: async (value) => {
      linked.push(value);
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, v.startsWith('file:') ? `https://store.example/${k}.bin` : v]),
      ) as typeof value;
    },
    submit: async (submission) => {
      submitted.push(submission);
      return { status: 'submitted', job: { id: 'job-1' } } as unknown as SubmitResult;
    },
  });
  return { service, linked, submitted };
}

describe('LipSyncService', () => {
  it.each([
    ['a video over 60 s', video({ durationMs: 61_000 }), /61 s.*at most 60 s.*1204/],
    ['a video over 300 MB', video({ sizeBytes: 301 * 1024 * 1024 }), /301 MB.*at most 300 MB.*1207/],
    ['a video over 60 fps', video({ fps: 60.5 }), /60\.5 fps.*at most 60 fps.*1210/],
  ])('refuses %s before anything is uploaded or sent, naming the code', async (_, v, reason) => {
    const { service, linked, submitted } = fakes({ 'https://a.example/v.mp4': v, 'https://a.example/a.mp3': audio() });
    const refusal = await service
      .send({ video: 'https://a.example/v.mp4', audio: 'https://a.example/a.mp3', confirmation: { by: 'script' } })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ToolRefusal);
    expect((refusal as ToolRefusal).message).toMatch(reason);
    expect((refusal as ToolRefusal).code).toBe('refused-before-sending');
    expect(linked).toEqual([]);
    expect(submitted).toEqual([]);
  });

  it('sends at exactly the limits, warning above 25 fps and about unequal lengths', async () => {
    const { service, submitted } = fakes({
      'https://a.example/v.mp4': video({ durationMs: 60_000, sizeBytes: 300 * 1024 * 1024, fps: 60 }),
      'https://a.example/a.mp3': audio({ durationMs: 58_000 }),
    });
    const measured = await service.measure({ video: 'https://a.example/v.mp4', audio: 'https://a.example/a.mp3' });
    expect(measured.checks.map((c) => [c.level, c.code])).toEqual([
      ['warning', 'fps-high'],
      ['warning', 'length-mismatch'],
    ]);
    await service.send({
      video: 'https://a.example/v.mp4',
      audio: 'https://a.example/a.mp3',
      confirmation: { by: 'script' },
    });
    expect(submitted).toEqual([
      {
        kind: 'lipsync',
        body: { video_url: 'https://a.example/v.mp4', audio_url: 'https://a.example/a.mp3' },
        confirmation: { by: 'script' },
      },
    ]);
  });

  it('sends local files as the links the upload gave them, and passes a confirmed duplicate on', async () => {
    const { service, linked, submitted } = fakes({
      'file:///granted/v.mp4': video(),
      'https://a.example/a.mp3': audio(),
    });
    await service.send({
      video: 'file:///granted/v.mp4',
      audio: 'https://a.example/a.mp3',
      confirmDuplicate: true,
      confirmation: { by: 'script' },
    });
    expect(linked).toEqual([{ video: 'file:///granted/v.mp4', audio: 'https://a.example/a.mp3' }]);
    expect(submitted).toEqual([
      {
        kind: 'lipsync',
        body: { video_url: 'https://store.example/video.bin', audio_url: 'https://a.example/a.mp3' },
        confirmDuplicate: true,
        confirmation: { by: 'script' },
      },
    ]);
  });

  it('refuses a video without sound (the service answers 1203) and an audio without an audio stream', async () => {
    const { service, submitted } = fakes({
      'https://a.example/v.mp4': video({ hasAudio: false }),
      'https://a.example/a.mp3': audio({ hasAudio: false }),
    });
    await expect(
      service.send({
        video: 'https://a.example/v.mp4',
        audio: 'https://a.example/a.mp3',
        confirmation: { by: 'script' },
      }),
    ).rejects.toThrow(/no sound track.*no audio stream/);
    expect(submitted).toEqual([]);
  });
});
