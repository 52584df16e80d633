import type { Project, Scene, SceneElement } from './document';
import { elementBox } from './geometry';
import { placementLabel, toWire, type PlacementConvention } from './placement';
import { sentMediaSize } from './serialise-avatar-video';
import type { Add, Where } from './check-where';

// The checks of where elements sit in the frame: what falls outside it, what would leave a scene
// empty, and whether the placement sent to the service stays within the scale it accepts.

/** Where an element meets the frame's edges: outside it is not shown, and nothing may be larger than it. */
export function checkFrameFit(project: Project, e: SceneElement, submit: boolean, at: Where, add: Add): void {
  const { width: W, height: H } = project.output;
  const box = elementBox(e);
  if (!showsInFrame(project, e)) {
    add(
      submit ? 'error' : 'warning',
      'off-frame',
      'lies entirely outside the frame, so it would not be visible; move it into the frame or delete it.',
      at,
    );
    return;
  }
  const out = [
    [-box.x, 'on the left'],
    [box.x + box.width - W, 'on the right'],
    [-box.y, 'at the top'],
    [box.y + box.height - H, 'at the bottom'],
  ] as const;
  const sides = out.filter(([px]) => px >= 1).map(([px, side]) => `${Math.round(px)} px ${side}`);
  if (sides.length)
    add(
      'warning',
      'partly-off-frame',
      `sticks out of the frame (${sides.join(', ')}); the part outside is not shown.`,
      at,
    );

  // Sizes stop at the frame's (a scale of 1, the most the service takes). A box held there on one side
  // while the other kept growing is out of its media's proportions: the clamp's visible trace.
  const media = e.mediaSize;
  if (!media || box.width <= 0 || box.height <= 0) return;
  const atWidth = box.width >= W - 0.5;
  const atHeight = box.height >= H - 0.5;
  const stretch = box.width / box.height / (media.width / media.height);
  if (Math.abs(stretch - 1) <= DISTORTION) return;
  if (atWidth || atHeight) {
    const limit = atWidth && atHeight ? "the frame's size" : atWidth ? "the frame's width" : "the frame's height";
    add(
      'warning',
      'scale-at-limit',
      `stopped at ${limit} (a scale of 1, the most the service takes) and is ${stretch > 1 ? 'stretched wide' : 'stretched tall'}: ${Math.round(box.width)}×${Math.round(box.height)} against its own ${media.width}×${media.height}. Make it smaller to keep its proportions.`,
      at,
    );
    return;
  }
  // Anywhere else too: a format's layout keeps every element's proportions (reframe.ts), so a stretched
  // box is an edit to undo, and every format made from this one would carry it.
  add(
    'warning',
    'distorted',
    `is drawn out of its proportions (${stretch > 1 ? 'stretched wide' : 'stretched tall'}): ${Math.round(box.width)}×${Math.round(box.height)} against its own ${Math.round(media.width)}×${Math.round(media.height)}. Resize it from a corner, or give it a height of ${Math.round((box.width * media.height) / media.width)}, to keep them.`,
    at,
  );
}

/** How far a box's aspect may drift from its media's (rounding to whole pixels stays far inside it). */
const DISTORTION = 0.01;

/** Whether any of an element's box falls inside the frame (an element of zero size never does). */
function showsInFrame(project: Project, e: SceneElement): boolean {
  const { width: W, height: H } = project.output;
  const box = elementBox(e);
  if (box.width <= 0 || box.height <= 0) return false;
  return box.x < W && box.y < H && box.x + box.width > 0 && box.y + box.height > 0;
}

/**
 * A scene whose result would be only the background: no element that can be seen (none, only sound,
 * or every one of zero size or outside the frame). Sending it pays for an empty video.
 */
export function checkSomethingVisible(project: Project, scene: Scene, here: Where, submit: boolean, add: Add): void {
  if (scene.elements.some((e) => e.type !== 'audio' && showsInFrame(project, e))) return;
  add(
    submit ? 'error' : 'warning',
    'scene-empty',
    'shows nothing but the background: add an avatar, picture or video inside the frame.',
    here,
  );
}

/** The service bounds scale to 0..1 in whatever the connection's scale is of (the frame, or the media). */
export function checkWirePlacement(
  project: Project,
  e: SceneElement,
  placement: PlacementConvention,
  at: Where,
  add: Add,
): void {
  if (e.type === 'audio') return;
  const wire = toWire(elementBox(e), project.output, placement, sentMediaSize(e));
  if (!wire) {
    add(
      'error',
      'media-size-unknown',
      `the connection places by ${placementLabel(placement)}, and this media's own size is not known; add the media again so its size is measured.`,
      at,
    );
    return;
  }
  if (placement.scale === 'frame' && (wire.scale_x > 1 || wire.scale_y > 1)) {
    // A box larger than the frame is a crop (a backdrop covering another format): the preview cuts what
    // lies outside, but the body has no way to say it, so it is named for what it is, not as a bad number.
    const { width: W, height: H } = project.output;
    add(
      'error',
      'scale-range',
      `is larger than the frame (${Math.round(e.width)}×${Math.round(e.height)} in a ${W}×${H} frame): the preview cuts what lies outside, but the service takes at most the frame's size (a scale of 1 on each side), so the request body cannot say this crop. Fit it inside the frame, or use a picture cut to the frame's shape.`,
      at,
    );
    return;
  }
  for (const [name, value] of [
    ['scale x', wire.scale_x],
    ['scale y', wire.scale_y],
  ] as const) {
    if (!(value >= 0 && value <= 1)) {
      const of = placement.scale === 'frame' ? 'the frame' : "the media's own size";
      add(
        'error',
        'scale-range',
        `is larger than ${of}: its ${name} would be ${value}, and the service accepts 0 to 1.`,
        at,
      );
    }
  }
}
