import { describe, expect, it } from 'vitest';
import {
  API_CODES,
  API_PATHS,
  ENDPOINTS,
  aiModelListQuerySchema,
  aiModelListSearch,
  avatarCreateBodySchema,
  characterSwapBodySchema,
  characterSwapCost,
  describeCode,
  describeIssues,
  detectFacesBodySchema,
  envelope,
  getTokenResponseSchema,
  talkingAvatarBodySchema,
  tokenFromResponse,
  ttsCreateBodySchema,
  videoRecordSchema,
  voiceCloneBodySchema,
} from '@common/api';

const firstMessage = (r: { success: boolean; error?: unknown }) =>
  r.success ? '' : describeIssues(r.error as Parameters<typeof describeIssues>[0]);

describe('api code table', () => {
  it('lists every code of the interface document with its meaning', () => {
    const documented = [
      1000, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1013, 1014, 1015, 1016, 1017, 1101, 1102, 1103, 1104,
      1105, 1108, 1109, 1110, 1111, 1112, 1200, 1201, 1202, 1203, 1204, 1205, 1206, 1207, 1208, 1209, 1210, 1211, 1212,
      1213, 1214, 1215, 1216, 1217, 1218, 1219, 1220, 1221, 1222, 1223,
    ];
    expect(Object.keys(API_CODES).map(Number).sort()).toEqual(documented);
    expect(describeCode(1216)).toBe('liveAvatar session does not exist');
    expect(describeCode(4242)).toContain('4242');
  });

  it('gives every path a spec with matching method and version', () => {
    expect(Object.keys(ENDPOINTS).sort()).toEqual(Object.keys(API_PATHS).sort());
    expect(ENDPOINTS.aiModelList.path).toBe('/api/open/v4/aigModel/list');
    expect(ENDPOINTS.characterSwapCreate.path).toBe('/api/open/v4/characterSwap/create');
    expect(ENDPOINTS.analyzeFrames.path).toBe('/faceswap/analyze_frames');
    expect(ENDPOINTS.voiceList.method).toBe('GET');
  });
});

describe('request schemas', () => {
  it('checks rate and word limits on TTS and names the field', () => {
    expect(ttsCreateBodySchema.safeParse({ input_text: 'hi', voice_id: 'v', rate: '100%' }).success).toBe(true);
    expect(firstMessage(ttsCreateBodySchema.safeParse({ input_text: 'hi', voice_id: 'v', rate: '101%' }))).toContain(
      'rate',
    );
    expect(firstMessage(ttsCreateBodySchema.safeParse({ input_text: 'hi', voice_id: 'v', rate: 'fast' }))).toContain(
      'rate',
    );
    const long = Array.from({ length: 5001 }, () => 'word').join(' ');
    expect(firstMessage(ttsCreateBodySchema.safeParse({ input_text: long, voice_id: 'v' }))).toContain('5000 words');
    expect(firstMessage(ttsCreateBodySchema.safeParse({ voice_id: 'v' }))).toContain('input_text');
  });

  it('needs voice_id or voice_url for a clone', () => {
    expect(firstMessage(voiceCloneBodySchema.safeParse({ input_text: 'a', rate: '50%' }))).toBe(
      'voice_id or voice_url must be provided',
    );
    expect(voiceCloneBodySchema.safeParse({ input_text: 'a', rate: '50%', voice_url: 'http://x/a.wav' }).success).toBe(
      true,
    );
  });

  it('enforces character swap limits and prices per started 5 seconds', () => {
    const ok = { image: 'http://h/a.png', video: 'http://h/v.mp4' };
    expect(characterSwapBodySchema.safeParse(ok).success).toBe(true);
    expect(firstMessage(characterSwapBodySchema.safeParse({ ...ok, duration: 121 }))).toContain('duration');
    expect(firstMessage(characterSwapBodySchema.safeParse({ ...ok, duration: 0.5 }))).toContain('duration');
    expect(firstMessage(characterSwapBodySchema.safeParse({ ...ok, resolution: '4k' }))).toContain('resolution');
    expect(firstMessage(characterSwapBodySchema.safeParse({ ...ok, mode: 'morph' }))).toContain('mode');
    expect(firstMessage(characterSwapBodySchema.safeParse({ ...ok, prompt: 'x'.repeat(501) }))).toContain('prompt');
    expect(characterSwapCost(12, '720p')).toBe(30);
    expect(characterSwapCost(5, '480p')).toBe(5);
    expect(characterSwapCost(5.1, '1080p')).toBe(30);
  });

  it('applies the talking avatar rules', () => {
    const audio = { type: 'audio', input_text: 'hello', voice_id: 'v1' };
    const avatar = { type: 'avatar', avatar_id: 'a1', scale_x: 1, scale_y: 1, offset_x: 0, offset_y: 0 };
    expect(
      talkingAvatarBodySchema.safeParse({ width: 640, height: 360, avatar_from: 2, elements: [avatar, audio] }).success,
    ).toBe(true);
    expect(
      firstMessage(
        talkingAvatarBodySchema.safeParse({ width: 3841, height: 360, avatar_from: 2, elements: [avatar, audio] }),
      ),
    ).toContain('width');
    // The official demo sends the official avatar's own url beside avatar_from 2.
    expect(
      talkingAvatarBodySchema.safeParse({
        width: 640,
        height: 360,
        avatar_from: 2,
        elements: [{ ...avatar, url: 'http://h/a.mp4' }, audio],
      }).success,
    ).toBe(true);
    expect(
      firstMessage(
        talkingAvatarBodySchema.safeParse({
          width: 640,
          height: 360,
          avatar_from: 2,
          elements: [avatar, { type: 'audio', input_text: 'x' }],
        }),
      ),
    ).toContain('voice_id');
    expect(
      firstMessage(
        talkingAvatarBodySchema.safeParse({
          width: 640,
          height: 360,
          avatar_from: 2,
          elements: [{ ...avatar, scale_x: 2 }, audio],
        }),
      ),
    ).toContain('scale_x');
  });

  it('accepts only letters and digits in avatar_id and a numeric string type', () => {
    expect(avatarCreateBodySchema.safeParse({ url: 'http://h/a.mp4', avatar_id: 'abc123', type: '1' }).success).toBe(
      true,
    );
    expect(
      firstMessage(avatarCreateBodySchema.safeParse({ url: 'http://h/a.mp4', avatar_id: 'abc-123', type: 1 })),
    ).toContain('letters and digits');
  });

  it('needs url or img and caps num_frames', () => {
    expect(firstMessage(detectFacesBodySchema.safeParse({}))).toBe('either url or img must be provided');
    expect(firstMessage(detectFacesBodySchema.safeParse({ url: 'http://h/a.mp4', num_frames: 25 }))).toContain(
      'num_frames',
    );
  });

  it('reads types[] from a query string as one value or many', () => {
    expect(aiModelListQuerySchema.parse({ types: '1501' }).types).toEqual([1501]);
    expect(aiModelListQuerySchema.parse({ types: ['1501', '2101'] }).types).toEqual([1501, 2101]);
    expect(aiModelListQuerySchema.safeParse({ types: ['999'] }).success).toBe(false);
    expect(aiModelListQuerySchema.safeParse({}).success).toBe(false);
    expect(aiModelListSearch([1501, 2101])).toBe('types%5B%5D=1501&types%5B%5D=2101');
  });
});

describe('response schemas', () => {
  it('keep unknown fields and reject wrong status values', () => {
    const ok = envelope(videoRecordSchema).parse({
      code: 1000,
      msg: 'OK',
      data: { _id: 'x', video_status: 1, video: '', extra: 5 },
    });
    expect(ok).toMatchObject({ data: { extra: 5 } });
    expect(
      envelope(videoRecordSchema).safeParse({ code: 1000, msg: 'OK', data: { _id: 'x', video_status: 7 } }).success,
    ).toBe(false);
    expect(envelope(videoRecordSchema).safeParse({ code: 1003, msg: 'bad' }).success).toBe(true);
  });

  it('finds the token at the top level or under data', () => {
    expect(tokenFromResponse(getTokenResponseSchema.parse({ code: 1000, token: 't1' }))).toBe('t1');
    expect(tokenFromResponse(getTokenResponseSchema.parse({ code: 1000, msg: 'OK', data: { token: 't2' } }))).toBe(
      't2',
    );
    expect(getTokenResponseSchema.safeParse({ code: 1000 }).success).toBe(false);
  });
});
