import { describe, expect, it } from 'vitest';
import { avatarVideoBodySchema, talkingAvatarBodySchema } from '@common/api';
import {
  addElement,
  addTextElement,
  createProject,
  deleteElement,
  DocumentHistory,
  exportBody,
  firstLine,
  parseProject,
  presetStyle,
  scaleElement,
  setTextStyle,
  textReference,
  toAvatarVideoBody,
  toTalkingAvatarBody,
  updateElement,
  validateProject,
  withTextAsImages,
  type Project,
} from '@common/composition';
import { golden } from './helpers';

const TOP_LEFT = { placement: { anchor: 'top-left', scale: 'frame' } } as const;

/** A 1280×720 project with a picture, a title and a lower third (natural sizes as the rasteriser measured them). */
function titled(): Project {
  let p = createProject({ id: 'p-text', kind: 'avatar-video', output: '16:9-720p', name: 'Text' });
  p = { ...p, scenes: [{ ...p.scenes[0], voice: { kind: 'url', url: 'https://cdn.example/voice.mp3' } }] };
  p = addElement(p, 'scene-1', {
    id: 'bg',
    type: 'image',
    url: 'https://cdn.example/bg.png',
    x: 0,
    y: 0,
    width: 1280,
    height: 720,
    mediaSize: { width: 1280, height: 720 },
  });
  p = addTextElement(p, 'scene-1', presetStyle(p, 'title'), { width: 417, height: 140 }, { id: 'title' });
  p = addTextElement(
    p,
    'scene-1',
    presetStyle(p, 'lower-third'),
    { width: 374, height: 168 },
    { id: 'name', place: 'lower-left' },
  );
  return p;
}

describe('text elements in request bodies', () => {
  it('go to the service as image elements at their box, named for the picture the studio uploads (golden)', () => {
    const body = toAvatarVideoBody(titled(), TOP_LEFT);
    golden('text.avatar-video.body.json', body);
    expect(avatarVideoBodySchema.safeParse(body).success).toBe(true);
    const [, title, name] = body.data[0].elements;
    expect(title).toEqual({
      id: 'title',
      type: 'image',
      url: 'studio-text:title',
      scale_x: round4(417 / 1280),
      scale_y: round4(140 / 720),
      offset_x: Math.round((1280 - 417) / 2),
      offset_y: Math.round((720 - 140) / 2),
      layer_number: 2,
    });
    expect(name).toMatchObject({
      type: 'image',
      url: textReference('name'),
      offset_x: Math.round(1280 * 0.06),
      layer_number: 3,
    });
  });

  it('are scaled by the element when the connection scales by the media (the picture is drawn at the box)', () => {
    const project = scaleElement(titled(), 'scene-1', 'title', 834, 280);
    const body = toAvatarVideoBody(project, { placement: { anchor: 'top-left', scale: 'element' } });
    expect(body.data[0].elements[1]).toMatchObject({ scale_x: 1, scale_y: 1 });
  });

  it('go into a talking avatar as images with their pixel size', () => {
    let p = createProject({ id: 't', kind: 'talking-avatar', output: '16:9-720p' });
    p = addElement(p, 'scene-1', {
      id: 'me',
      type: 'avatar',
      url: '',
      avatarId: 'anna',
      avatarFrom: 2,
      x: 0,
      y: 0,
      width: 640,
      height: 720,
    });
    p = addElement(p, 'scene-1', {
      id: 'say',
      type: 'audio',
      url: 'https://cdn.example/voice.mp3',
      x: 0,
      y: 0,
      width: 0,
      height: 0,
    });
    p = addTextElement(p, 'scene-1', presetStyle(p, 'title'), { width: 417, height: 140 }, { id: 'title' });
    const body = toTalkingAvatarBody(p, TOP_LEFT);
    expect(body.elements.find((e) => e.type === 'image')).toMatchObject({
      url: 'studio-text:title',
      width: 417,
      height: 140,
    });
    expect(talkingAvatarBodySchema.safeParse(body).success).toBe(true);
  });

  it('become image elements of their pictures for the compositor, and one without a picture is left out', () => {
    const flat = withTextAsImages(titled(), new Map([['title', 'file:///tmp/title.png']]));
    const elements = flat.scenes[0].elements;
    expect(elements.map((e) => e.id)).toEqual(['bg', 'title']);
    expect(elements[1]).toMatchObject({
      type: 'image',
      url: 'file:///tmp/title.png',
      mediaSize: { width: 417, height: 140 },
      x: 432,
      y: 290,
    });
    expect(elements[1].text).toBeUndefined();
  });
});

describe('text element problems', () => {
  it('an empty text and an unknown font block sending with a message naming the element', () => {
    let p = titled();
    p = setTextStyle(
      p,
      'scene-1',
      'title',
      { ...p.scenes[0].elements[1].text!, content: ' ' },
      { width: 40, height: 140 },
    );
    p = setTextStyle(
      p,
      'scene-1',
      'name',
      { ...p.scenes[0].elements[2].text!, fontFamily: 'Comic Sans' },
      { width: 374, height: 168 },
    );
    const problems = validateProject(p, { purpose: 'submit' });
    expect(problems.find((x) => x.code === 'text-empty')).toMatchObject({
      level: 'error',
      elementId: 'title',
      message: expect.stringMatching(/element title .*the text is empty/),
    });
    expect(problems.find((x) => x.code === 'text-font')).toMatchObject({
      level: 'error',
      elementId: 'name',
      message: expect.stringContaining('"Comic Sans" (regular) is not one this studio has'),
    });
    expect(exportBody(p).ok).toBe(false);
    expect(exportBody(titled()).ok).toBe(true);
  });

  it('a project file whose text style is broken is refused with where and why', () => {
    const bad = JSON.parse(JSON.stringify(titled()));
    bad.scenes[0].elements[1].text.fontSize = -3;
    const parsed = parseProject(bad);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/scenes\[0\]\.elements\[1\]\.text\.fontSize/);
  });
});

describe('text element operations', () => {
  it('a restyle keeps the scale and the side the alignment holds, and is one undo step', () => {
    let p = titled();
    p = scaleElement(p, 'scene-1', 'title', 834, 280, { x: 100, y: 50 });
    const history = new DocumentHistory(p);
    const style = p.scenes[0].elements[1].text!;
    const next = history.commit(
      setTextStyle(p, 'scene-1', 'title', { ...style, content: 'A longer title' }, { width: 600, height: 140 }),
    );
    const title = next.scenes[0].elements[1];
    // Twice the natural size before, twice after; centred text keeps its centre (100 + 834 / 2).
    expect([title.width, title.height, title.x + title.width / 2, title.y]).toEqual([1200, 280, 517, 50]);
    expect(title.name).toBe('A longer title');
    expect(history.undo()).toBe(p);
    expect(history.redo()).toBe(next);
  });

  it('the project records the font files its text uses, with fingerprints, and keeps them through a save', () => {
    const p = titled();
    expect(p.fonts?.map((f) => [f.file, f.sha256.length])).toEqual([
      ['SourceSans3-Regular.ttf', 64],
      ['SourceSans3-Bold.ttf', 64],
    ]);
    const reread = parseProject(JSON.stringify(p));
    expect(reread.ok && reread.project).toEqual(p);
    const serif = setTextStyle(
      p,
      'scene-1',
      'title',
      { ...p.scenes[0].elements[1].text!, fontFamily: 'DejaVu Serif' },
      { width: 417, height: 140 },
    );
    expect(serif.fonts?.map((f) => f.file)).toEqual(['SourceSans3-Regular.ttf', 'DejaVuSerif-Bold.ttf']);
    expect(deleteElement(p, 'scene-1', 'title').scenes[0].elements.map((e) => e.id)).toEqual(['bg', 'name']);
  });

  it("a label made from the text follows a text edit, also one cut at 40 characters as the starters' are", () => {
    const p = titled();
    const style = p.scenes[0].elements[1].text!;
    const long = 'One board for every project, deadline and teammate.';
    const edit = (name: string | undefined, content: string) => {
      const named = updateElement(p, 'scene-1', 'title', { name });
      const restyled = setTextStyle(
        named,
        'scene-1',
        'title',
        { ...style, content: long },
        { width: 600, height: 140 },
      );
      return setTextStyle(restyled, 'scene-1', 'title', { ...style, content }, { width: 600, height: 140 }).scenes[0]
        .elements[1].name;
    };
    // Named by a starter: the first 40 characters of the line, no ellipsis.
    expect(edit(long.slice(0, 40), 'Launch day')).toBe('Launch day');
    expect(edit(firstLine({ ...style, content: long }), 'Launch day\nsecond line')).toBe('Launch day');
    // A name the user gave is theirs.
    expect(edit('Headline', 'Launch day')).toBe('Headline');
  });

  it('presets scale with the frame: a 9:16 frame gets the same sizes as 16:9 1080p', () => {
    const vertical = createProject({ id: 'v', kind: 'avatar-video', output: '9:16' });
    const wide720 = createProject({ id: 'w', kind: 'avatar-video', output: '16:9-720p' });
    expect(presetStyle(vertical, 'title').fontSize).toBe(96);
    expect(presetStyle(wide720, 'title').fontSize).toBe(64);
  });
});

function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}
