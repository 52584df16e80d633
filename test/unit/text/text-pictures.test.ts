import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addElement,
  addTextElement,
  createProject,
  planFromProject,
  presetStyle,
  type Project,
} from '@common/composition';
import { StudioError } from '../../../electron/services/host/errors';
import { bundledFontsDir, TextPictures } from '../../../electron/services/text/text-pictures';
import { FONTS_DIR } from './text-node';

const dir = mkdtempSync(join(tmpdir(), 'text-pictures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pictures(): { service: TextPictures; granted: string[] } {
  const granted: string[] = [];
  const service = new TextPictures({
    dir,
    fontsDir: FONTS_DIR,
    grant: (path) => (granted.push(path), pathToFileURL(path).href),
  });
  return { service, granted };
}

function titled(): Project {
  let p = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-720p' });
  p = addElement(p, 'scene-1', {
    id: 'bg',
    type: 'image',
    url: 'https://cdn.example/bg.png',
    x: 0,
    y: 0,
    width: 1280,
    height: 720,
  });
  return addTextElement(p, 'scene-1', presetStyle(p, 'title'), { width: 300, height: 100 }, { id: 'title' });
}

describe('host text pictures', () => {
  it('finds the bundled fonts from its own location', () => {
    expect(bundledFontsDir()).toBe(FONTS_DIR);
  });

  it('writes a granted PNG at the asked size, once per distinct picture', async () => {
    const { service, granted } = pictures();
    const style = presetStyle(titled(), 'title');
    const a = await service.picture(style, { width: 300, height: 100 });
    expect(a).toMatchObject({ width: 300, height: 100, url: pathToFileURL(a.path).href });
    expect(granted).toEqual([a.path]);
    const again = await service.picture(style, { width: 300, height: 100 });
    expect(again.path).toBe(a.path);
    await service.picture({ ...style, content: 'Other' }, { width: 300, height: 100 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.png'))).toHaveLength(2);
  });

  // Fails when every drawing of one picture shares a part file (mutation: the pid alone names it):
  // two campaign rows with the same title drew it at once and one renamed the other's file away.
  it('draws the same picture for several callers at once without one losing its file', async () => {
    const { service } = pictures();
    const style = { ...presetStyle(titled(), 'title'), content: 'Same for every row' };
    const drawn = await Promise.all(
      Array.from({ length: 6 }, () => service.picture(style, { width: 300, height: 100 })),
    );
    expect(new Set(drawn.map((d) => d.path)).size).toBe(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('refuses empty text and an unknown font as invalid-text, with the reason', async () => {
    const { service } = pictures();
    const style = presetStyle(titled(), 'title');
    const empty = service.picture({ ...style, content: '' }, { width: 10, height: 10 });
    await expect(empty).rejects.toBeInstanceOf(StudioError);
    await expect(empty).rejects.toMatchObject({
      code: 'invalid-text',
      message: expect.stringContaining('The text is empty'),
    });
    await expect(service.picture({ ...style, fontFamily: 'Nope' }, { width: 10, height: 10 })).rejects.toMatchObject({
      code: 'invalid-text',
    });
  });

  it('gives the compositor each text as a picture layer at the element box, and leaves out text it cannot draw', async () => {
    const { service } = pictures();
    const project = titled();
    const flat = await service.flatten(project);
    const plan = planFromProject(flat, (request) => (request.url ? { path: request.url, still: true } : null));
    const layer = plan.scenes[0].layers[1];
    expect(layer.box).toEqual({ x: 490, y: 310, width: 300, height: 100 });
    expect(JSON.stringify(layer.source)).toContain('text-');
    const emptied = {
      ...project,
      scenes: [
        {
          ...project.scenes[0],
          elements: project.scenes[0].elements.map((e) =>
            e.type === 'text' ? { ...e, text: { ...e.text!, content: ' ' } } : e,
          ),
        },
      ],
    };
    expect((await service.flatten(emptied)).scenes[0].elements.map((e) => e.id)).toEqual(['bg']);
  });
});
