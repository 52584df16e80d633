import Konva from 'konva';
import { onBeforeUnmount, watch } from 'vue';

type FrameVideo = HTMLVideoElement & { requestVideoFrameCallback?: (callback: () => void) => number };

/**
 * While the timeline plays, the only thing on the canvas that moves is a video. Redrawing the layer at
 * the display's rate (60 a second) repainted every picture and text in software for frames no video
 * had changed; this gate answers "draw now" only when a video on the layer has presented a new frame
 * (25 or 30 a second for the service's clips, none at all for a scene without video). Where a browser
 * cannot tell when a video frame is presented, every display frame is drawn, as before.
 */
export function videoFrameGate(layer: Konva.Layer): { due(): boolean; stop(): void } {
  let fresh = true;
  let stopped = false;
  const followed = new WeakSet<HTMLVideoElement>();
  const follow = (video: FrameVideo): void => {
    followed.add(video);
    const presented = (): void => {
      if (stopped) return;
      fresh = true;
      video.requestVideoFrameCallback?.(presented);
    };
    video.requestVideoFrameCallback?.(presented);
  };
  return {
    due() {
      for (const node of layer.find('Image')) {
        const source = (node as Konva.Image).image();
        if (!(source instanceof HTMLVideoElement)) continue;
        if (typeof (source as FrameVideo).requestVideoFrameCallback !== 'function') fresh = true;
        else if (!followed.has(source)) {
          follow(source);
          fresh = true;
        }
      }
      const draw = fresh;
      fresh = false;
      return draw;
    },
    stop() {
      stopped = true;
    },
  };
}

/** Redraws the layer while `playing` is true, at the rate its videos present frames (videoFrameGate). */
export function usePlaybackRedraw(playing: () => boolean, layer: () => Konva.Layer | undefined): void {
  let animation: Konva.Animation | null = null;
  let gate: ReturnType<typeof videoFrameGate> | null = null;
  const stop = () => {
    animation?.stop();
    gate?.stop();
    animation = gate = null;
  };
  watch(playing, (now) => {
    stop();
    const node = layer();
    if (!now || !node) return;
    const frames = (gate = videoFrameGate(node));
    // Konva draws the layer after a tick unless the tick returns false.
    animation = new Konva.Animation(() => frames.due(), node);
    animation.start();
  });
  onBeforeUnmount(stop);
}
