import type Konva from 'konva';
import { describe, expect, it } from 'vitest';
import { videoFrameGate } from '@/canvas/video-frames';

/** A layer holding the given image sources, as Konva's find('Image') returns them. */
const layerOf = (...sources: unknown[]) =>
  ({ find: () => sources.map((source) => ({ image: () => source })) }) as unknown as Konva.Layer;

/** A video whose presented frames the test drives. */
function frameVideo() {
  const video = document.createElement('video');
  let pending: (() => void)[] = [];
  Object.defineProperty(video, 'requestVideoFrameCallback', { value: (cb: () => void) => pending.push(cb) });
  return {
    video,
    present() {
      const due = pending;
      pending = [];
      for (const cb of due) cb();
    },
    waiting: () => pending.length,
  };
}

describe('redrawing the canvas while the timeline plays', () => {
  it('draws once for a scene without video, then only when something changes', () => {
    const gate = videoFrameGate(layerOf(document.createElement('img')));
    expect(gate.due()).toBe(true);
    expect([gate.due(), gate.due(), gate.due()]).toEqual([false, false, false]);
  });

  it('draws when a video on the layer presents a new frame, not on every display frame', () => {
    const clip = frameVideo();
    const gate = videoFrameGate(layerOf(clip.video, document.createElement('img')));
    expect(gate.due()).toBe(true);
    expect(gate.due()).toBe(false);
    clip.present();
    expect(gate.due()).toBe(true);
    expect(gate.due()).toBe(false);
    clip.present();
    clip.present();
    expect(gate.due()).toBe(true);
  });

  it('stops following the videos when playback stops', () => {
    const clip = frameVideo();
    const gate = videoFrameGate(layerOf(clip.video));
    gate.due();
    gate.stop();
    clip.present();
    expect(clip.waiting()).toBe(0);
  });

  it('draws every display frame where the browser cannot tell when a video frame is presented', () => {
    const video = document.createElement('video');
    Object.defineProperty(video, 'requestVideoFrameCallback', { value: undefined });
    const gate = videoFrameGate(layerOf(video));
    expect([gate.due(), gate.due(), gate.due()]).toEqual([true, true, true]);
  });
});
