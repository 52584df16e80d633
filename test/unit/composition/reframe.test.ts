import { describe, expect, it } from 'vitest';
import {
  coversFrame,
  measuredBy,
  reframeProject,
  reframeStylesToMeasure,
  safeAreaOf,
  setOutput,
  type OutputSize,
  type Project,
  type SceneElement,
} from '@common/composition';
import { nodeRasteriser } from '../text/text-node';
import { golden, starter } from './helpers';

const STARTERS = ['product-explainer', 'talking-head', 'news-lower-third', 'training-slides'] as const;
const FORMATS: Record<string, OutputSize> = {
  '9:16': { width: 1080, height: 1920 },
  '1:1': { width: 1080, height: 1080 },
  '4:5': { width: 1080, height: 1350 },
  '16:9 720p': { width: 1280, height: 720 },
  'any (1000×300)': { width: 1000, height: 300 },
};

/** Reframes as the editor does: every re-wrapped style measured by the real rasteriser first. */
async function measuredReframe(project: Project, to: OutputSize): Promise<Project> {
  const rasteriser = nodeRasteriser();
  const styles = reframeStylesToMeasure(project, to);
  const sizes = await Promise.all(styles.map(async (s) => rasteriser.layout(s)));
  return reframeProject(project, to, { measure: measuredBy(styles, sizes) });
}

/** How much wider than tall the element is drawn against what it was: 1 is undistorted. */
function distortion(before: SceneElement, after: SceneElement): number {
  if (after.type === 'text') {
    // Text may wrap into another box; its letters keep their shape when the picture is scaled evenly.
    const media = after.mediaSize!;
    return after.width / media.width / (after.height / media.height);
  }
  return after.width / after.height / (before.width / before.height);
}

function sameShape(a: OutputSize, b: OutputSize): boolean {
  return a.width * b.height === a.height * b.width;
}

function pairs(before: Project, after: Project): [SceneElement, SceneElement][] {
  return before.scenes.flatMap((s, i) => s.elements.map((e, j) => [e, after.scenes[i].elements[j]] as const)) as [
    SceneElement,
    SceneElement,
  ][];
}

describe('reframing a starter to another format', () => {
  for (const name of STARTERS) {
    for (const [label, to] of Object.entries(FORMATS)) {
      it(`${name} → ${label}: no element changes its proportions, text stays in the safe area`, async () => {
        const before = starter(name);
        const after = await measuredReframe(before, to);
        expect(after.output).toEqual(to);
        const safe = safeAreaOf(to);
        for (const [was, now] of pairs(before, after)) {
          const what = `${now.name ?? now.id} (${now.type})`;
          expect(Math.abs(distortion(was, now) - 1), `${what} is distorted`).toBeLessThan(0.01);
          if (sameShape(before.output, to)) {
            // A frame of the same shape scales every box evenly, as it was placed.
            const k = to.width / before.output.width;
            expect([now.x, now.y, now.width, now.height], what).toEqual(
              [was.x, was.y, was.width, was.height].map((v) => Math.round(v * k * 100) / 100),
            );
          } else if (now.type === 'text') {
            expect(now.x, `${what} left`).toBeGreaterThanOrEqual(safe.x - 0.01);
            expect(now.y, `${what} top`).toBeGreaterThanOrEqual(safe.y - 0.01);
            expect(now.x + now.width, `${what} right`).toBeLessThanOrEqual(safe.x + safe.width + 0.01);
            expect(now.y + now.height, `${what} bottom`).toBeLessThanOrEqual(safe.y + safe.height + 0.01);
          } else if (now.role === 'backdrop') {
            expect(coversFrame(now, to), `${what} covers the frame`).toBe(true);
          } else {
            expect(now.x, `${what} left`).toBeGreaterThanOrEqual(-0.01);
            expect(now.y, `${what} top`).toBeGreaterThanOrEqual(-0.01);
            expect(now.x + now.width, `${what} right`).toBeLessThanOrEqual(to.width + 0.01);
            expect(now.y + now.height, `${what} bottom`).toBeLessThanOrEqual(to.height + 0.01);
          }
        }
      });
    }
  }

  it('keeps the product explainer in 9:16 and 1:1 as the golden files say', async () => {
    const before = starter('product-explainer');
    const boxes = (p: Project) =>
      p.scenes.map((s) =>
        s.elements.map((e) => ({
          id: e.id,
          box: [e.x, e.y, e.width, e.height],
          ...(e.text ? { fontSize: e.text.fontSize, wrapWidth: e.text.wrapWidth } : {}),
        })),
      );
    golden('reframe.product-explainer.9x16.json', boxes(await measuredReframe(before, FORMATS['9:16'])));
    golden('reframe.product-explainer.1x1.json', boxes(await measuredReframe(before, FORMATS['1:1'])));
  });

  it('covers the frame with a full-frame backdrop by default, and fits it when asked', () => {
    const before = starter('product-explainer');
    const covered = reframeProject(before, FORMATS['9:16']).scenes[0].elements[0];
    // 1920×1080 scaled to 1920 tall is 3413.33 wide, centred: the sides are cut.
    expect(covered).toMatchObject({ x: -1166.67, y: 0, width: 3413.33, height: 1920 });
    const fitted = reframeProject(before, FORMATS['9:16'], { backdrop: 'contain' }).scenes[0].elements[0];
    expect(fitted).toMatchObject({ x: 0, y: 656.25, width: 1080, height: 607.5 });
  });

  it('stands a full-frame presenter on the bottom, centred, at its own aspect', () => {
    const avatar = reframeProject(starter('talking-head'), FORMATS['9:16']).scenes[0].elements[0];
    expect(avatar).toMatchObject({ type: 'avatar', x: 0, width: 1080, height: 607.5, y: 1312.5 });
  });

  it('keeps a corner avatar in its corner', () => {
    // Training slides, scene 2: a picture-in-picture presenter at the lower right.
    const before = starter('training-slides').scenes[1].elements.find((e) => e.type === 'avatar')!;
    const after = reframeProject(starter('training-slides'), FORMATS['1:1']).scenes[1].elements.find(
      (e) => e.id === before.id,
    )!;
    expect(1920 - (before.x + before.width)).toBe(120);
    // The right margin scales with the frame's width (120 × 1080/1920), the bottom one stays.
    expect(after.x + after.width).toBeCloseTo(1080 - 67.5, 1);
    expect(after.y + after.height).toBeCloseTo(1080 - 145, 1);
  });

  it('keeps text as large against the shorter side, wrapping it instead of squeezing it', async () => {
    const before = starter('news-lower-third');
    const after = await measuredReframe(before, FORMATS['9:16']);
    const headline = (p: Project) => p.scenes[0].elements.find((e) => e.name?.startsWith('City council'))!;
    const was = headline(before);
    const now = headline(after);
    // 1080 is the shorter side of both frames: the letters keep their size, the line breaks in two.
    expect(now.width / now.mediaSize!.width).toBeCloseTo(was.width / was.mediaSize!.width, 2);
    expect(now.text!.fontSize).toBe(was.text!.fontSize);
    expect(now.text!.wrapWidth).not.toBeNull();
    expect(now.height).toBeGreaterThan(was.height * 1.5);
  });

  it('estimates wrapped text without a measure, and leaves the input untouched', () => {
    const before = starter('news-lower-third');
    const copy = JSON.stringify(before);
    const after = reframeProject(before, FORMATS['9:16']);
    expect(JSON.stringify(before)).toBe(copy);
    for (const [was, now] of pairs(before, after)) expect(Math.abs(distortion(was, now) - 1)).toBeLessThan(0.01);
    expect(reframeProject(before, before.output)).toBe(before);
  });

  it('is what changing the output size does: 16:9 to 9:16 stretches nothing', async () => {
    const before = starter('product-explainer');
    const rasteriser = nodeRasteriser();
    const styles = reframeStylesToMeasure(before, FORMATS['9:16']);
    const sizes = await Promise.all(styles.map(async (s) => rasteriser.layout(s)));
    const after = setOutput(before, '9:16', { measure: measuredBy(styles, sizes) });
    expect(after).toEqual(await measuredReframe(before, FORMATS['9:16']));
    for (const [was, now] of pairs(before, after)) expect(Math.abs(distortion(was, now) - 1)).toBeLessThan(0.01);
    // The avatar (16:9, 800×450) keeps its shape; scaling X and Y apart made it 450×800.
    const avatar = after.scenes[0].elements.find((e) => e.type === 'avatar')!;
    expect(avatar.width / avatar.height).toBeCloseTo(16 / 9, 3);
  });
});
