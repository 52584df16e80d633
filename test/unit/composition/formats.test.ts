import { describe, expect, it } from 'vitest';
import {
  addFormat,
  formatProjects,
  formatsOf,
  formatStylesToMeasure,
  measuredBy,
  parseProject,
  projectInFormat,
  removeFormat,
  safeAreaOf,
  setOutput,
  setTextStyle,
  switchFormat,
  toAvatarVideoBody,
  updateElement,
  type OutputSize,
  type Project,
} from '@common/composition';
import { nodeRasteriser } from '../text/text-node';
import { starter } from './helpers';

const TALL: OutputSize = { width: 1080, height: 1920 };
const SQUARE: OutputSize = { width: 1080, height: 1080 };

async function measured(project: Project, to?: OutputSize) {
  const rasteriser = nodeRasteriser();
  const styles = formatStylesToMeasure(project, to);
  const sizes = await Promise.all(
    styles.map(async (s) => {
      const { width, height } = await rasteriser.layout(s);
      return { width, height };
    }),
  );
  return { measure: measuredBy(styles, sizes) };
}

async function withFormats(): Promise<Project> {
  let p = starter('product-explainer');
  p = addFormat(p, TALL, await measured(p, TALL));
  return addFormat(p, SQUARE, await measured(p, SQUARE));
}

describe('formats as variants of one project', () => {
  it('adds 9:16 and 1:1 beside 16:9, keeping the one being edited', async () => {
    const original = starter('product-explainer');
    const p = await withFormats();
    expect(p.output).toEqual(original.output);
    expect(p.scenes).toEqual(original.scenes);
    expect(formatsOf(p).map((f) => f.label)).toEqual(['16:9 · 1920×1080', '1:1 · 1080×1080', '9:16 · 1080×1920']);
    expect(parseProject(JSON.parse(JSON.stringify(p)))).toEqual({ ok: true, project: p });
  });

  it('each format keeps every element in proportion and its text in the safe area', async () => {
    const original = starter('product-explainer');
    const p = await withFormats();
    for (const to of [TALL, SQUARE]) {
      const f = projectInFormat(p, to);
      const safe = safeAreaOf(to);
      expect(f.output).toEqual(to);
      f.scenes.forEach((scene, s) =>
        scene.elements.forEach((now, i) => {
          if (now.type === 'audio') return;
          const was = original.scenes[s].elements[i];
          const drift =
            now.type === 'text'
              ? now.width / now.mediaSize!.width / (now.height / now.mediaSize!.height)
              : now.width / now.height / (was.width / was.height);
          expect(Math.abs(drift - 1)).toBeLessThan(0.01);
          if (now.type !== 'text') return;
          expect(now.x).toBeGreaterThanOrEqual(safe.x - 0.01);
          expect(now.y).toBeGreaterThanOrEqual(safe.y - 0.01);
          expect(now.x + now.width).toBeLessThanOrEqual(safe.x + safe.width + 0.01);
          expect(now.y + now.height).toBeLessThanOrEqual(safe.y + safe.height + 0.01);
        }),
      );
    }
  });

  it('each format serialises to its own body, exactly as a project of that size alone would', async () => {
    const p = await withFormats();
    const bodies = formatProjects(p).map((f) => toAvatarVideoBody(f));
    expect(bodies.map((b) => `${b.data[0].width}x${b.data[0].height}:${b.data[0].ratio}`)).toEqual([
      '1920x1080:16:9',
      '1080x1080:1:1',
      '1080x1920:9:16',
    ]);
    const { formats: _f, ...alone } = projectInFormat(p, TALL);
    expect(bodies[2]).toEqual(toAvatarVideoBody(alone as Project));
  });

  it('switching swaps the boxes and back again restores them; a box moved in one format stays in the others', async () => {
    const p = await withFormats();
    const tall = switchFormat(p, TALL);
    expect(tall.output).toEqual(TALL);
    expect(tall.scenes).toEqual(projectInFormat(p, TALL).scenes);
    expect(formatsOf(tall).find((f) => f.current)!.label).toBe('9:16 · 1080×1920');
    const el = tall.scenes[0].elements.find((e) => e.type !== 'text' && e.type !== 'audio')!;
    const moved = updateElement(tall, tall.scenes[0].id, el.id, { x: el.x + 40 });
    const back = switchFormat(moved, p.output);
    expect(back.scenes).toEqual(p.scenes);
    expect(projectInFormat(back, TALL).scenes[0].elements.find((e) => e.id === el.id)!.x).toBe(el.x + 40);
    // Choosing a size the project already has from the output list is switching to it.
    expect(setOutput(p, '9:16').scenes).toEqual(tall.scenes);
  });

  it('an edit to shared content reaches every format; an element added later is reframed into the others', async () => {
    const p = await withFormats();
    const scene = p.scenes[0];
    const text = scene.elements.find((e) => e.type === 'text')!;
    const renamed = updateElement(p, scene.id, text.id, { name: 'Renamed' });
    for (const f of formatProjects(renamed))
      expect(f.scenes[0].elements.find((e) => e.id === text.id)!.name).toBe('Renamed');
    const added = {
      ...p,
      scenes: [
        {
          ...scene,
          elements: [...scene.elements, { ...scene.elements[0], id: 'el-new', x: 0, y: 0, width: 400, height: 300 }],
        },
        ...p.scenes.slice(1),
      ],
    } as Project;
    const inTall = projectInFormat(added, TALL).scenes[0].elements.find((e) => e.id === 'el-new')!;
    expect(Math.abs(inTall.width / inTall.height / (400 / 300) - 1)).toBeLessThan(0.01);
  });

  it('removes a format, never the one being edited, and a project without formats reads as before', async () => {
    const p = await withFormats();
    expect(removeFormat(p, p.output)).toBe(p);
    const one = removeFormat(removeFormat(p, TALL), SQUARE);
    expect('formats' in one).toBe(false);
    const dup = { ...p, formats: [p.formats![0], p.formats![0]] };
    const parsed = parseProject(JSON.parse(JSON.stringify(dup)));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/format 1080x1920 twice/);
  });

  it('a text reworded in one format keeps the place it was given in another, wrapped and measured there anew', async () => {
    const p = switchFormat(await withFormats(), TALL);
    const scene = p.scenes[0];
    const title = scene.elements.find((e) => e.type === 'text')!;
    // Moved in 9:16, then reworded back in 16:9.
    const moved = updateElement(p, scene.id, title.id, { x: title.x + 30, y: title.y + 50 });
    const wide = switchFormat(moved, p.formats!.find((f) => f.output.width === 1920)!.output);
    const reworded = setTextStyle(
      wide,
      scene.id,
      title.id,
      { ...wide.scenes[0].elements.find((e) => e.id === title.id)!.text!, content: 'A new and longer title' },
      { width: 900, height: 120 },
    );
    const tall = projectInFormat(reworded, TALL, await measured(reworded, TALL));
    const now = tall.scenes[0].elements.find((e) => e.id === title.id)!;
    expect([now.x, now.y]).toEqual([title.x + 30, title.y + 50]);
    expect(now.text!.content).toBe('A new and longer title');
    expect(now.text!.wrapWidth).toBe(title.text!.wrapWidth);
    expect(Math.abs(now.width / now.mediaSize!.width / (now.height / now.mediaSize!.height) - 1)).toBeLessThan(0.01);
    expect(now.mediaSize).not.toEqual(title.mediaSize);
  });
});
