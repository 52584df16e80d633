import { describe, expect, it } from 'vitest';
import { curlCommand, endpointFor } from '@/views/editor/request-export';
import { checkMediaUrl, linkAsset, mediaKindOf, type LinkProbe } from '@/stores/editor-assets';
import { decodeAssetDrag, encodeAssetDrag } from '@/views/editor/asset-drag';

describe('copy as curl', () => {
  it('targets the right endpoint with a placeholder key and the exact body', () => {
    const body = { data: [{ width: 1920, elements: [{ url: "https://x/it's.png" }] }] };
    const text = curlCommand('avatar-video', body, 'https://api.example.com/');
    expect(text).toContain(`'https://api.example.com${endpointFor('avatar-video')}'`);
    expect(text).toContain('-H "x-api-key: $STUDIO_API_KEY"');
    // The single quote in the body survives shell quoting.
    expect(text).toContain(`'\\''s.png`);
    const json = text.slice(text.indexOf('--data-raw ') + 12, -1).replace(/'\\''/g, "'");
    expect(JSON.parse(json)).toEqual(body);
  });

  it('uses a base URL variable when the connection has none yet', () => {
    expect(curlCommand('talking-avatar', {}, null)).toContain('"$STUDIO_BASE_URL/api/open/v3/talkingavatar/create"');
  });
});

describe('media links', () => {
  it('accepts http(s) links to images, videos and audio', () => {
    expect(checkMediaUrl(' https://cdn.example.com/a/b.webp?x=1 ')).toEqual({
      ok: true,
      url: 'https://cdn.example.com/a/b.webp?x=1',
      kind: 'image',
    });
    expect(mediaKindOf('https://x/clip.MOV')).toBe('video');
    expect(mediaKindOf('https://x/v', 'audio/mpeg')).toBe('audio');
  });

  it('says what is wrong with a link it refuses', () => {
    expect(checkMediaUrl('not a link')).toMatchObject({ ok: false, error: expect.stringContaining('is not a link') });
    expect(checkMediaUrl('file:///home/me/a.png')).toMatchObject({
      ok: false,
      error: expect.stringContaining('file:'),
    });
    expect(checkMediaUrl('https://x/readme.txt')).toMatchObject({
      ok: false,
      error: expect.stringContaining('readme.txt'),
    });
  });

  it('adds a link as what it holds when the host could read it, not as what its name says', async () => {
    const holds =
      (kind: 'image' | 'video' | 'audio', format: 'jpeg' | 'mp4' | 'wav' | 'heic'): LinkProbe =>
      async () => ({ kind, format });
    expect(await linkAsset('https://cdn.example/photo.jpg', holds('image', 'jpeg'))).toEqual({
      ok: true,
      asset: { url: 'https://cdn.example/photo.jpg', kind: 'image', name: 'photo.jpg' },
    });
    // A photo served without an extension, a video named like a picture.
    expect(await linkAsset('https://cdn.example/p/8812', holds('image', 'jpeg'))).toMatchObject({
      ok: true,
      asset: { kind: 'image' },
    });
    expect(await linkAsset('https://cdn.example/still.jpg', holds('video', 'mp4'))).toMatchObject({
      ok: true,
      asset: { kind: 'video' },
    });
    expect(await linkAsset('https://cdn.example/IMG_1.heic', holds('image', 'heic'))).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^IMG_1\.heic: An? HEIC picture cannot be used for an image element: the service does not take HEIC\. Save it as JPEG or PNG/,
      ),
    });
  });

  it('falls back on the name when the host cannot read the link, and refuses when neither tells', async () => {
    const unreachable: LinkProbe = async () => {
      throw new Error('offline');
    };
    expect(await linkAsset('https://cdn.example/voice.wav', unreachable)).toMatchObject({
      ok: true,
      asset: { kind: 'audio', name: 'voice.wav' },
    });
    expect(await linkAsset('https://cdn.example/p/8812', async () => null)).toMatchObject({
      ok: false,
      error: expect.stringContaining('Cannot tell what "8812" is'),
    });
    expect(await linkAsset('ftp://cdn.example/a.png', unreachable)).toMatchObject({
      ok: false,
      error: expect.stringContaining('ftp:'),
    });
  });

  it('round-trips drag payloads and rejects anything else', () => {
    expect(decodeAssetDrag(encodeAssetDrag({ kind: 'avatar', avatarId: 'A1' }))).toEqual({
      kind: 'avatar',
      avatarId: 'A1',
    });
    expect(decodeAssetDrag('{"kind":"media","url":"u","mediaKind":"exe"}')).toBeNull();
    expect(decodeAssetDrag('nope')).toBeNull();
  });
});
