import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_VERSION,
  addElement,
  createProject,
  fromWire,
  parseProject,
  placementProblem,
  toTalkingAvatarBody,
  toWire,
  validateProject,
  type PlacementConvention,
} from '@common/composition';
import { fixtures } from './helpers';

const FRAME = { width: 1920, height: 1080 };
const CONVENTIONS: PlacementConvention[] = [
  { anchor: 'centre', scale: 'frame' },
  { anchor: 'centre', scale: 'element' },
  { anchor: 'top-left', scale: 'frame' },
  { anchor: 'top-left', scale: 'element' },
];

describe('version-1 projects', () => {
  for (const name of ['two-scenes.project.json', 'talking.project.json']) {
    it(`${name}: every element keeps the box the canvas drew (top-left at the offset, scale of the frame)`, () => {
      const raw = JSON.parse(readFileSync(join(fixtures, name), 'utf8'));
      expect(raw.schemaVersion).toBe(1);
      const parsed = parseProject(raw);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(parsed.project.schemaVersion).toBe(SCHEMA_VERSION);
      const { width, height } = raw.output;
      raw.scenes.forEach((scene: { elements: Record<string, number>[] }, s: number) =>
        scene.elements.forEach((old, i) => {
          const now = parsed.project.scenes[s].elements[i];
          expect(now).not.toHaveProperty('offsetX');
          expect([now.x, now.y]).toEqual([old.offsetX, old.offsetY]);
          expect(now.width).toBeCloseTo(old.scaleX * width, 1);
          expect(now.height).toBeCloseTo(old.scaleY * height, 1);
        }),
      );
    });
  }

  it('a saved version-2 project reads back unchanged', () => {
    const parsed = parseProject(readFileSync(join(fixtures, 'two-scenes.project.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parseProject(JSON.stringify(parsed.project))).toEqual(parsed);
  });
});

describe('placement conventions', () => {
  it("the service's example bodies fill the frame read by the centre: background at (960, 540), scale 1", () => {
    expect(
      fromWire({ offset_x: 960, offset_y: 540, scale_x: 1, scale_y: 1 }, FRAME, { anchor: 'centre', scale: 'frame' }),
    ).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    expect(
      fromWire(
        { offset_x: 1920, offset_y: 1080, scale_x: 1, scale_y: 1 },
        { width: 3840, height: 2160 },
        { anchor: 'centre', scale: 'frame' },
      ),
    ).toEqual({ x: 0, y: 0, width: 3840, height: 2160 });
    // Read by the top-left corner, the same body leaves three quarters of the frame empty.
    expect(
      fromWire({ offset_x: 960, offset_y: 540, scale_x: 1, scale_y: 1 }, FRAME, { anchor: 'top-left', scale: 'frame' }),
    ).toEqual({ x: 960, y: 540, width: 1920, height: 1080 });
  });

  for (const convention of CONVENTIONS) {
    it(`${convention.anchor}/${convention.scale}: a box written and read back is the same box`, () => {
      const media = { width: 640, height: 480 };
      const box = { x: 130, y: -40, width: 320, height: 360 };
      const wire = toWire(box, FRAME, convention, media);
      if (!wire) throw new Error('no wire placement');
      const back = fromWire(wire, FRAME, convention, media);
      expect(back?.x).toBeCloseTo(box.x, 0);
      expect(back?.y).toBeCloseTo(box.y, 0);
      expect(back?.width).toBeCloseTo(box.width, 0);
      expect(back?.height).toBeCloseTo(box.height, 0);
    });
  }

  it('writes the centre and the scale the convention names', () => {
    const box = { x: 100, y: 50, width: 320, height: 240 };
    expect(toWire(box, FRAME, { anchor: 'centre', scale: 'frame' })).toEqual({
      offset_x: 260,
      offset_y: 170,
      scale_x: 0.1667,
      scale_y: 0.2222,
    });
    expect(toWire(box, FRAME, { anchor: 'top-left', scale: 'element' }, { width: 640, height: 480 })).toEqual({
      offset_x: 100,
      offset_y: 50,
      scale_x: 0.5,
      scale_y: 0.5,
    });
    expect(toWire(box, FRAME, { anchor: 'centre', scale: 'element' })).toBeNull();
  });

  it('a talking avatar is written by the connection convention, the default being the centre', () => {
    let p = createProject({ id: 'p', kind: 'talking-avatar', output: '16:9-1080p' });
    p = addElement(p, 'scene-1', {
      id: 'bg',
      type: 'image',
      url: 'https://m/bg.png',
      x: 0,
      y: 0,
      width: 1920,
      height: 1080,
      mediaSize: { width: 3840, height: 2160 },
    });
    const bg = (body: ReturnType<typeof toTalkingAvatarBody>) => body.elements.find((e) => e.type === 'image');
    expect(bg(toTalkingAvatarBody(p))).toMatchObject({ offset_x: 960, offset_y: 540, scale_x: 1, scale_y: 1 });
    expect(bg(toTalkingAvatarBody(p, { placement: { anchor: 'top-left', scale: 'element' } }))).toMatchObject({
      offset_x: 0,
      offset_y: 0,
      scale_x: 0.5,
      scale_y: 0.5,
    });
  });

  it('refuses to send an element whose media size a scale of the element needs, and one larger than its media', () => {
    let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-1080p' });
    p = addElement(p, 'scene-1', {
      id: 'a',
      type: 'image',
      url: 'https://m/a.png',
      x: 0,
      y: 0,
      width: 500,
      height: 500,
    });
    p = addElement(p, 'scene-1', {
      id: 'b',
      type: 'image',
      url: 'https://m/b.png',
      x: 0,
      y: 0,
      width: 500,
      height: 500,
      mediaSize: { width: 250, height: 250 },
    });
    const codes = (c: PlacementConvention) =>
      validateProject(p, { placement: c })
        .filter((x) => x.elementId)
        .map((x) => `${x.elementId}:${x.code}`);
    expect(codes({ anchor: 'centre', scale: 'element' })).toEqual([
      'a:media-size-unknown',
      'b:scale-range',
      'b:scale-range',
    ]);
    expect(codes({ anchor: 'centre', scale: 'frame' })).toEqual([]);
  });

  it('warns while a connection places by an assumed convention, not once it is measured or built in', () => {
    const placement = { anchor: 'centre', scale: 'frame' } as const;
    expect(placementProblem({ name: 'Prod', placement: { ...placement, source: 'assumed' } })).toMatchObject({
      level: 'warning',
      code: 'placement-unverified',
      message: expect.stringContaining('Check placement'),
    });
    expect(placementProblem({ name: 'Prod', placement: { ...placement, source: 'measured' } })).toBeNull();
    expect(placementProblem({ name: 'Sandbox', placement: { ...placement, source: 'built-in' } })).toBeNull();
  });
});
