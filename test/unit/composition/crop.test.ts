import { describe, expect, it } from 'vitest';
import {
  buildFfmpegArgs,
  planFromAvatarVideoBody,
  planFromProject,
  reframeProject,
  textReference,
  toAvatarVideoBody,
  validateProject,
  withTextAsImages,
  type InputRequest,
  type PlacementConvention,
  type Project,
} from '@common/composition';
import { starter } from './helpers';

// A box may run past the frame (a backdrop covering another format, a picture slid half out): the
// local preview and what the service is sent must cut the same part, and where the body cannot say
// it, Problems must.

const CONVENTIONS: PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'element' },
];

const resolve = (request: InputRequest): string => `/media/${request.elementId ?? request.role}`;

/** The product explainer in 9:16 with its text as pictures (as the preview and the submit see it), one picture slid half out. */
function vertical(): Project {
  const p = reframeProject(starter('product-explainer'), { width: 1080, height: 1920 });
  const pictures = new Map(p.scenes.flatMap((s) => s.elements.map((e) => [e.id, textReference(e.id)] as const)));
  const slid = {
    ...p,
    scenes: p.scenes.map((s, i) =>
      i === 1 ? { ...s, elements: s.elements.map((e) => (e.role === 'accent' ? { ...e, x: -300 } : e)) } : s,
    ),
  };
  return withTextAsImages(slid, pictures);
}

describe('a box past the frame is cut the same by the preview and by the body', () => {
  for (const placement of CONVENTIONS) {
    it(`${placement.anchor} / scale of the ${placement.scale}: the body read back places every box where the preview does`, () => {
      const project = vertical();
      const sizes = new Map(project.scenes.flatMap((s) => s.elements.map((e) => [e.url, e.mediaSize] as const)));
      const preview = planFromProject(project, resolve);
      const body = toAvatarVideoBody(project, { placement });
      const sent = planFromAvatarVideoBody(body, resolve, { placement, mediaSize: (m) => sizes.get(m.url ?? '') });
      const boxes = (plan: typeof preview) => plan.scenes.flatMap((s) => s.layers.flatMap((l) => Object.values(l.box)));
      const [a, b] = [boxes(sent), boxes(preview)];
      expect(a).toHaveLength(b.length);
      // Within the wire's own precision: a scale of four decimals is a fifth of a pixel of a 1920 frame.
      a.forEach((v, i) => expect(Math.abs(v - b[i]), `value ${i}`).toBeLessThan(0.5));
      // The backdrop starts 1166.67 px left of the frame in both: the same 2333 px of it are cut.
      expect(preview.scenes[0].layers[0].box.x).toBeCloseTo(-1166.67, 1);
    });
  }

  it('the preview overlays such a box at its negative offset, so ffmpeg cuts what lies outside', () => {
    const command = buildFfmpegArgs(planFromProject(vertical(), resolve), {
      outputPath: '/tmp/out.mp4',
      quality: 'preview',
    });
    // Scaled to its whole box first (aspect kept), then overlaid from outside the frame's left edge.
    expect(command.filterGraph).toMatch(/scale=\d+:\d+:flags=[a-z_]+,setsar=1/);
    expect(command.filterGraph).toMatch(/overlay=x=-\d+:y=0/);
  });

  it('Problems says where the body cannot: a box larger than the frame, and nothing about one that only slides out', () => {
    const problems = validateProject(vertical(), { placement: CONVENTIONS[0] });
    const larger = problems.filter((p) => p.code === 'scale-range');
    // One backdrop per scene covers the 9:16 frame by running past it.
    expect(larger.map((p) => p.sceneIndex)).toEqual([0, 1, 2]);
    expect(larger[0].message).toMatch(/larger than the frame \(3413×1920 in a 1080×1920 frame\).*cannot say this crop/);
    const accent = vertical().scenes[1].elements.find((e) => e.role === 'accent')!;
    const slid = problems.filter((p) => p.elementId === accent.id && p.code !== 'url-invalid');
    expect(slid.map((p) => p.code)).toEqual(['partly-off-frame']);
    expect(slid[0].message).toMatch(/300 px on the left\); the part outside is not shown/);
  });
});
