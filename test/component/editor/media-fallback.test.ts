// A link the page cannot load (an expired result) is drawn from the host, which reads the copy the studio
// saved of it; only when the host cannot either does the canvas show the media as failed.
import { describe, expect, it, vi } from 'vitest';

const frames = vi.hoisted(() => ({ answer: null as null | { dataUrl: string }, asked: [] as string[] }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string, url: string) => {
    frames.asked.push(`${channel} ${url}`);
    if (!frames.answer) throw new Error('cannot download (HTTP 404)');
    return frames.answer;
  }),
}));

import { MediaCache } from '@/composables/editor-media';

const STILL = 'data:image/jpeg;base64,/9j/2w==';

async function settled(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

describe('editor media of an expired link', () => {
  it('falls back to the host still of a video the page cannot load', async () => {
    frames.answer = { dataUrl: STILL };
    frames.asked.length = 0;
    const media = new MediaCache();
    const url = 'https://results.example/expired.mp4';
    const first = media.get(url);
    expect(first.kind).toBe('video');
    first.element.dispatchEvent(new Event('error'));
    await settled();
    expect(frames.asked).toEqual([`media.frame ${url}`]);
    const now = media.get(url);
    expect(now.kind).toBe('image');
    expect((now.element as HTMLImageElement).src).toBe(STILL);
    now.element.dispatchEvent(new Event('load'));
    expect(media.status(url)).toBe('ready');
  });

  it('reports the media as failed when the host has no copy either', async () => {
    frames.answer = null;
    frames.asked.length = 0;
    const media = new MediaCache();
    const url = 'https://results.example/gone.png';
    media.get(url).element.dispatchEvent(new Event('error'));
    await settled();
    expect(frames.asked).toEqual([`media.frame ${url}`]);
    expect(media.status(url)).toBe('error');
  });

  it("never asks for a template's placeholder link: {{logo}} is filled per row, not a file anywhere", async () => {
    frames.asked.length = 0;
    const media = new MediaCache();
    const entry = media.get('{{logo}}');
    await settled();
    expect(entry.status).toBe('error');
    expect(entry.element.getAttribute('src')).toBeNull();
    expect(frames.asked).toEqual([]);
  });
});
