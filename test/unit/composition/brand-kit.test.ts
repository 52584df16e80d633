import { describe, expect, it } from 'vitest';
import {
  applyBrandKit,
  BrandKit,
  DEFAULT_TEXT_STYLE,
  measuredBy,
  readableOn,
  stylesToMeasure,
  textRoleOf,
  type MeasureText,
  type Project,
  type SceneElement,
  type TextStyle,
} from '@common/composition';
import { golden } from './helpers';

/** A stand-in for the font's metrics: wider fonts and bigger sizes give bigger boxes, deterministically. */
const measure: MeasureText = (style) => ({
  width: Math.round(style.content.length * style.fontSize * (style.fontFamily === 'DejaVu Serif' ? 0.62 : 0.5)),
  height: Math.round(style.fontSize * 1.2),
});

function text(id: string, content: string, patch: Partial<TextStyle>, at: Partial<SceneElement> = {}): SceneElement {
  const style = { ...DEFAULT_TEXT_STYLE, content, ...patch };
  const size = measure(style);
  return { id, type: 'text', url: '', x: 100, y: 100, ...size, mediaSize: size, layer: 1, text: style, ...at };
}

const project: Project = {
  schemaVersion: 2,
  id: 'p1',
  name: 'Launch',
  kind: 'avatar-video',
  output: { width: 1920, height: 1080 },
  background: '#ffffff',
  scenes: [
    {
      id: 'scene-1',
      durationMs: 5000,
      voice: null,
      elements: [
        {
          id: 'el-1',
          type: 'avatar',
          url: 'https://example.com/a.mp4',
          avatarId: 'A',
          x: 0,
          y: 0,
          width: 1920,
          height: 1080,
          layer: 0,
        },
        text('el-2', 'Big launch', { fontSize: 96 }, { x: 200, y: 100 }),
        // No role recorded: boxed and low in the frame, so a lower third.
        text(
          'el-3',
          'Alex Morgan',
          {
            fontSize: 48,
            fontWeight: 400,
            align: 'left',
            box: { colour: '#222222', opacity: 0.8, padding: 20, radius: 8 },
          },
          { y: 850 },
        ),
        text('el-4', 'Small print', { fontSize: 30, fontWeight: 400, colour: '#333333' }, { y: 500, role: 'body' }),
      ],
    },
  ],
};

const kit: BrandKit = BrandKit.parse({
  colours: { primary: '#e11d48', secondary: '#f1f5f9', text: '#0f172a', background: '#fff7ed' },
  fonts: { heading: 'DejaVu Serif', body: 'Source Sans 3' },
  logo: {
    url: 'file:///brand/logo.png',
    name: 'logo.png',
    mediaSize: { width: 400, height: 200 },
    corner: 'top-right',
    sizePercent: 15,
  },
  intro: {
    name: 'Sting',
    output: { width: 1080, height: 1080 },
    scene: {
      id: 'x',
      durationMs: 2000,
      voice: null,
      elements: [text('t', 'ACME', { fontSize: 120 }, { x: 300, y: 400, role: 'title' })],
    },
  },
  outro: null,
  applyToNewProjects: true,
});

function branded(p: Project, k = kit): Project {
  const styles = stylesToMeasure(p, k);
  return applyBrandKit(p, k, measuredBy(styles, styles.map(measure)));
}

describe('brand kit', () => {
  it('restyles text by role, colours the frame, adds the logo and the intro (golden)', () => {
    const result = branded(project);
    golden('brand-kit.applied.json', result);
    const [intro, main] = result.scenes;
    expect(intro).toMatchObject({ brand: 'intro', name: 'Sting' });
    // The 1080-square intro fitted into 1920×1080: scaled by 1, moved right by 420; its centred title,
    // now in the wider heading font, keeps its centre (300 + 420 + 240 / 2).
    const sting = intro.elements[0];
    expect(sting).toMatchObject({ y: 400, role: 'title', text: { fontFamily: 'DejaVu Serif' } });
    expect(sting.x + sting.width / 2).toBeCloseTo(840, 0);
    expect(result.background).toBe('#fff7ed');
    const byId = new Map(main.elements.map((e) => [e.id, e]));
    expect(byId.get('el-2')!.text).toMatchObject({ fontFamily: 'DejaVu Serif', colour: '#0f172a' });
    expect(byId.get('el-3')!.text).toMatchObject({
      fontFamily: 'Source Sans 3',
      box: { colour: '#e11d48' },
      colour: '#fff7ed',
    });
    expect(byId.get('el-4')!.text).toMatchObject({ fontFamily: 'Source Sans 3', colour: '#0f172a' });
    const logo = main.elements.find((e) => e.role === 'logo')!;
    expect(logo).toMatchObject({ url: 'file:///brand/logo.png', width: 162, height: 81, x: 1715, y: 43, locked: true });
    expect(Math.max(...main.elements.map((e) => e.layer))).toBe(logo.layer);
    expect(result.fonts?.map((f) => f.file).sort()).toEqual(['DejaVuSerif-Bold.ttf', 'SourceSans3-Regular.ttf']);
  });

  it('applied twice is applied once: the intro and logo are replaced, not repeated', () => {
    const once = branded(project);
    const twice = branded(once);
    expect(twice).toBe(once);
    expect(twice.scenes.length).toBe(2);
    expect(twice.scenes.flatMap((s) => s.elements).filter((e) => e.role === 'logo')).toHaveLength(2);
    expect(twice.scenes[1].elements.map((e) => e.text)).toEqual(once.scenes[1].elements.map((e) => e.text));
  });

  it('a kit without logo or bookends removes the ones an earlier kit added', () => {
    const plain = branded(branded(project), { ...kit, logo: null, intro: null });
    expect(plain.scenes.map((s) => s.id)).toEqual(['scene-1']);
    expect(plain.scenes[0].elements.some((e) => e.role === 'logo')).toBe(false);
  });

  it('keeps an element scale when the font changes width, and leaves the input untouched', () => {
    const before = JSON.stringify(project);
    const result = branded(project);
    expect(JSON.stringify(project)).toBe(before);
    const title = result.scenes[1].elements.find((e) => e.id === 'el-2')!;
    expect(title.width / title.mediaSize!.width).toBeCloseTo(1, 5);
    expect(title.mediaSize!.width).toBe(measure(title.text!).width);
  });

  it('reads a role from the look when none is recorded', () => {
    const out = project.output;
    const [, title, lower, body] = project.scenes[0].elements;
    expect([textRoleOf(title, out), textRoleOf(lower, out), textRoleOf({ ...body, role: undefined }, out)]).toEqual([
      'title',
      'lower-third',
      'body',
    ]);
  });

  it('picks a readable colour for text on a brand box', () => {
    expect(readableOn('#e11d48', kit)).toBe('#fff7ed');
    expect(readableOn('#f1f5f9', kit)).toBe('#0f172a');
    // Neither brand colour reads on mid grey: black or white does.
    expect(readableOn('#777777', { ...kit, colours: { ...kit.colours, text: '#808080', background: '#707070' } })).toBe(
      '#000000',
    );
  });

  it('refuses a kit naming a font the studio does not ship', () => {
    const bad = BrandKit.safeParse({ ...kit, fonts: { heading: 'Comic Sans', body: 'Source Sans 3' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/a font the studio ships/);
  });

  it('an unmeasured style is a bug, not a silently wrong box', () => {
    expect(() => applyBrandKit(project, kit, measuredBy([], []))).toThrow(/not measured/);
  });
});
