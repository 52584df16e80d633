// The Media list shows thumbnails: a local picture or a video is shown by a frame the host draws (the
// page cannot load a local file), a linked picture as itself, a sound by its glyph.
import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';

const frames = vi.hoisted(() => ({ asked: [] as string[] }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string, url: string) => {
    if (channel !== 'media.frame') throw new Error(`unexpected call ${channel}`);
    frames.asked.push(url);
    if (url.includes('broken')) throw new Error('ffmpeg could not read it');
    return { dataUrl: `data:image/jpeg;base64,${btoa(url)}` };
  }),
}));

import MediaThumb from '@/views/editor/MediaThumb.vue';

const shown = async (url: string, kind: 'image' | 'video' | 'audio') => {
  const wrapper = mount(MediaThumb, { props: { url, kind } });
  await flushPromises();
  const img = wrapper.find('img');
  return { src: img.exists() ? (img.attributes('src') ?? null) : null, text: wrapper.text() };
};

describe('media list thumbnails', () => {
  it('draws a local picture and a video from a frame, shows a linked picture as itself, and a sound by its glyph', async () => {
    expect((await shown('file:///granted/office.jpg', 'image')).src).toBe(
      `data:image/jpeg;base64,${btoa('file:///granted/office.jpg')}`,
    );
    expect((await shown('https://cdn.example/clip.mp4', 'video')).src).toMatch(/^data:image\/jpeg;base64,/);
    expect((await shown('https://cdn.example/logo.png', 'image')).src).toBe('https://cdn.example/logo.png');
    expect(await shown('file:///granted/song.mp3', 'audio')).toEqual({ src: null, text: '♪' });
    expect(frames.asked).toEqual(['file:///granted/office.jpg', 'https://cdn.example/clip.mp4']);
  });

  it('keeps the glyph when the frame cannot be drawn', async () => {
    expect(await shown('file:///granted/broken.mp4', 'video')).toEqual({ src: null, text: '▶' });
  });
});
