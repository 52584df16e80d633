import { describe, expect, it } from 'vitest';
import type { AiModel } from '@common/api/models';
import type { JobSubmission, SubmitResult } from '@common/bridge';
import type { MediaInfo } from '@common/composition/media-info';
import { swapCost } from '@common/tools/character-swap';
import { explainToolFailure } from '@common/tools/tool-failures';
import { CharacterSwapService } from '../../../electron/services/tools/character-swap-service';
import { ToolRefusal } from '../../../electron/services/tools/tool-deps';

const png: MediaInfo = {
  kind: 'image',
  durationMs: null,
  width: 512,
  height: 512,
  fps: null,
  videoCodec: 'png',
  audioCodec: null,
  hasVideo: true,
  hasAudio: false,
  sizeBytes: 5000,
  formatName: 'png_pipe',
  format: 'png',
  rotation: 0,
};
const mp4 = (seconds: number, over: Partial<MediaInfo> = {}): MediaInfo => ({
  kind: 'video',
  durationMs: seconds * 1000,
  width: 640,
  height: 360,
  fps: 25,
  videoCodec: 'h264',
  audioCodec: 'aac',
  hasVideo: true,
  hasAudio: true,
  sizeBytes: 1e6,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  format: 'mp4',
  rotation: 0,
  ...over,
});
const model = (value: string, units: [number, number, number], type = 2101): AiModel => ({
  type,
  label: value.toUpperCase(),
  value,
  provider: 'P',
  resolutionList: [
    ['480p', 854, 480],
    ['720p', 1280, 720],
    ['1080p', 1920, 1080],
  ].map(([v, w, h], i) => ({
    label: String(v).toUpperCase(),
    value: String(v),
    width: Number(w),
    height: Number(h),
    unit_credit: units[i],
  })),
});

function fakes(media: Record<string, MediaInfo>, models: AiModel[] = [model('swap-a', [5, 10, 15])]) {
  const submitted: JobSubmission[] = [];
  const linked: Record<string, string>[] = [];
  const service = new CharacterSwapService({
    probe: async (reference) => media[reference] ?? Promise.reject(new Error(`no ${reference}`)),
    link: async (value) => {
      linked.push(value);
      return value;
    },
    submit: async (submission) => {
      submitted.push(submission);
      return { status: 'submitted', job: { id: 'j' } } as unknown as SubmitResult;
    },
    swapModels: async () => models,
  });
  return { service, submitted, linked };
}

const inputs = { image: 'https://a.example/face.png', video: 'https://a.example/clip.mp4' };

describe('character swap cost', () => {
  it.each([
    [12, 10, 30],
    [5, 10, 10],
    [5.01, 10, 20],
    [1, 5, 5],
    [120, 15, 360],
  ])('%s s at %s credits per started 5 s costs %s', (seconds, unit, credits) => {
    expect(swapCost(seconds, unit, '720p').credits).toBe(credits);
  });
});

describe('CharacterSwapService', () => {
  it("quotes from the model list: 12 s at 720p = 30 credits, the video's own length when no duration is given", async () => {
    const { service } = fakes({ [inputs.image]: png, [inputs.video]: mp4(12) });
    const detected = await service.quote(inputs);
    expect(detected).toMatchObject({
      model: 'swap-a',
      resolution: '720p',
      unitCredit: 10,
      seconds: 12,
      detected: true,
      credits: 30,
      checks: [],
    });
    expect(detected.basis).toBe('12 s at 720p: 3 started 5 s × 10 credits = 30 credits');
    expect(await service.quote({ ...inputs, duration: 7, resolution: '1080p' })).toMatchObject({
      seconds: 7,
      detected: false,
      credits: 30,
    });
  });

  it("prices with the chosen model's own unit_credit and offers every type 2101 model", async () => {
    const { service } = fakes({ [inputs.image]: png, [inputs.video]: mp4(12) }, [
      model('swap-a', [5, 10, 15]),
      model('swap-b', [7, 14, 21]),
      model('i2v', [1, 1, 1], 1501),
    ]);
    const quote = await service.quote({ ...inputs, model: 'swap-b' });
    expect(quote.models.map((m) => m.value)).toEqual(['swap-a', 'swap-b']);
    expect(quote.credits).toBe(42);
  });

  it('sends the confirmed duration, resolution, mode, prompt and model, with the links', async () => {
    const { service, submitted } = fakes({ [inputs.image]: png, [inputs.video]: mp4(12.345) }, [
      model('swap-a', [5, 10, 15]),
      model('swap-b', [7, 14, 21]),
    ]);
    await service.send({ ...inputs, mode: 'replace', prompt: '  calm  ', confirmedCredits: 30 });
    expect(submitted).toEqual([
      {
        kind: 'character-swap',
        body: {
          image: inputs.image,
          video: inputs.video,
          duration: 12.35,
          resolution: '720p',
          mode: 'replace',
          prompt: 'calm',
          model_name: 'swap-a',
        },
        confirmation: { by: 'user', credits: 30 },
      },
    ]);
  });

  it('refuses a send whose cost is not the one confirmed, before anything is uploaded or sent', async () => {
    const { service, submitted, linked } = fakes({ [inputs.image]: png, [inputs.video]: mp4(12) });
    const refusal = await service
      .send({ ...inputs, resolution: '1080p', confirmedCredits: 30 })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ToolRefusal);
    expect((refusal as Error).message).toMatch(/The cost is now 45 credits .* not the 30 you confirmed/);
    expect(submitted).toEqual([]);
    expect(linked).toEqual([]);
  });

  it.each([
    ['a video over 120 s with no duration', png, mp4(121), {}, /lasts 121 s; character swap takes 1 to 120 s/],
    [
      'an image that is not PNG or JPEG',
      { ...png, videoCodec: 'webp', formatName: 'webp_pipe', format: 'webp' as const },
      mp4(10),
      {},
      /must be a PNG or JPEG picture/,
    ],
    [
      'a video that is not MP4',
      png,
      mp4(10, { formatName: 'matroska,webm', format: 'webm' }),
      {},
      /must be an MP4 video; this is a WebM video/,
    ],
  ])('refuses %s before sending', async (_, image, video, extra, reason) => {
    const { service, submitted } = fakes({ [inputs.image]: image, [inputs.video]: video });
    const quote = await service.quote({ ...inputs, ...extra });
    expect(
      quote.checks
        .filter((c) => c.level === 'error')
        .map((c) => c.message)
        .join(' '),
    ).toMatch(reason);
    await expect(service.send({ ...inputs, ...extra, confirmedCredits: quote.credits ?? 0 })).rejects.toThrow(reason);
    expect(submitted).toEqual([]);
  });

  it('takes the start of a long video when a duration is given', async () => {
    const { service, submitted } = fakes({ [inputs.image]: png, [inputs.video]: mp4(300) });
    await service.send({ ...inputs, duration: 20, confirmedCredits: 40 });
    expect(submitted[0]?.body).toMatchObject({ duration: 20 });
  });

  it('refuses a resolution or model the list does not offer', async () => {
    const { service } = fakes({ [inputs.image]: png, [inputs.video]: mp4(12) });
    await expect(service.quote({ ...inputs, resolution: '4k' })).rejects.toThrow(/offers 480p, 720p, 1080p, not 4k/);
    await expect(service.quote({ ...inputs, model: 'nope' })).rejects.toThrow(/"nope" is not a character swap model/);
  });
});

describe('tool failure explanations', () => {
  it.each([1103, 1213, 1221])('explains plan error %s for character swap in plain words', (code) => {
    expect(explainToolFailure('character-swap', code)).toMatch(/needs the Pro plan or higher.*Nothing was charged/);
  });
  it('explains 1202 for lip sync: once per video and language, and what to do', () => {
    expect(explainToolFailure('lipsync', 1202)).toMatch(
      /already been lip-synced in this language.*only once.*different video.*another language/,
    );
    expect(explainToolFailure('lipsync', 1103)).toBeNull();
    expect(explainToolFailure('character-swap', null)).toBeNull();
  });
});
