import { describe, expect, it } from 'vitest';
import {
  addTextElement,
  applyBrandKit,
  createProject,
  DEFAULT_BRAND_KIT,
  presetStyle,
  type BrandKit,
  type TextStyle,
} from '@common/composition';

const kit: BrandKit = { ...DEFAULT_BRAND_KIT, fonts: { heading: 'DejaVu Serif', body: 'Source Sans 3' } };
// The kit's heading font draws 30% wider than the studio's (as DejaVu Serif does against Source Sans 3).
const measure = (style: TextStyle) => ({
  width: style.content.length * style.fontSize * (style.fontFamily === 'DejaVu Serif' ? 0.65 : 0.5),
  height: style.fontSize * 1.2,
});

function withTitle(x: number) {
  const base = createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'Explainer' });
  const style = { ...presetStyle(base, 'title'), content: 'Meet the product that explains itself' };
  const project = addTextElement(base, 'scene-1', style, measure(style), { id: 'title' });
  return { ...project, scenes: project.scenes.map((s) => ({ ...s, elements: s.elements.map((e) => ({ ...e, x })) })) };
}

describe('the brand kit keeps text inside the frame', () => {
  it("brings back a title the kit's wider heading font would push past the frame, at its own aspect", () => {
    const project = withTitle(60);
    const before = project.scenes[0].elements[0];
    expect(before.x + before.width).toBeLessThanOrEqual(1920);
    const after = applyBrandKit(project, kit, measure).scenes[0].elements.find((e) => e.id === 'title')!;
    expect(after.text!.fontFamily).toBe('DejaVu Serif');
    expect(after.x).toBeGreaterThanOrEqual(0);
    expect(after.x + after.width).toBeLessThanOrEqual(1920);
    expect(after.width / after.height).toBeCloseTo(after.mediaSize!.width / after.mediaSize!.height, 2);
  });

  it('leaves a text the user put partly outside the frame where it was', () => {
    const project = withTitle(-200);
    const after = applyBrandKit(project, kit, measure).scenes[0].elements.find((e) => e.id === 'title')!;
    // Restyled as any text is (its alignment holds its centre), not pulled into the frame.
    expect(after.x).toBeLessThan(0);
    expect(after.width / after.height).toBeCloseTo(after.mediaSize!.width / after.mediaSize!.height, 2);
  });
});
