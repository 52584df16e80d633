import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProject, DEFAULT_BRAND_KIT, mediaUrlsOf, type Project } from '@common/composition';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { ProjectLibrary } from '../../../electron/services/projects/project-library';
import { createProjectsDomain } from '../../../electron/services/projects/projects-domain';
import { starterTemplatesDir, TemplateLibrary } from '../../../electron/services/projects/templates';
import { createTemplatesDomain, startProject } from '../../../electron/services/projects/templates-domain';

let dir: string;
let granted: Set<string>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'templates-'));
  granted = new Set();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function library(startersDir = starterTemplatesDir()): TemplateLibrary {
  return new TemplateLibrary({
    dataDir: join(dir, 'data'),
    startersDir,
    pathOf: (url) => (granted.has(url) ? fileURLToPath(url) : null),
    grant: (path) => {
      const url = pathToFileURL(path).href;
      granted.add(url);
      return url;
    },
  });
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function projectWithMedia(): { project: Project; logo: string } {
  const file = join(dir, 'mine', 'logo.png');
  mkdirSync(join(dir, 'mine'), { recursive: true });
  writeFileSync(file, PNG);
  const logo = pathToFileURL(file).href;
  granted.add(logo);
  const base = createProject({ id: 'p1', kind: 'avatar-video', output: '16:9-1080p', name: 'Weekly' });
  const element = (id: string, url: string) => ({
    id,
    type: 'image' as const,
    url,
    x: 0,
    y: 0,
    width: 100,
    height: 100,
    layer: 1,
  });
  return {
    project: {
      ...base,
      scenes: [
        {
          ...base.scenes[0],
          elements: [element('el-1', logo), element('el-2', logo), element('el-3', 'https://example.com/a.png')],
        },
      ],
    },
    logo,
  };
}

describe('templates', () => {
  it('lists the five starter templates, each readable, with a thumbnail, and each makes a project', async () => {
    const lib = library();
    const { templates, unreadable } = await lib.list();
    expect(unreadable).toEqual([]);
    expect(templates.map((t) => t.name)).toEqual([
      'Talking head',
      'Product explainer',
      'Lower-third news',
      'Vertical social (9:16)',
      'Training slides',
    ]);
    expect(templates.every((t) => t.starter && t.thumbnail?.startsWith('data:image/jpeg;base64,'))).toBe(true);
    expect(templates.find((t) => t.name.startsWith('Vertical'))!.output).toEqual({ width: 1080, height: 1920 });
    for (const t of templates) {
      const project = await lib.instantiate(t.id, join(dir, 'imports'));
      const local = mediaUrlsOf(project).filter((u) => u.startsWith('file:'));
      expect(local.length).toBeGreaterThan(0);
      // Copied out of the template and granted: the project no longer names the template's folder.
      expect(local.every((u) => granted.has(u) && fileURLToPath(u).startsWith(join(dir, 'imports')))).toBe(true);
      expect(mediaUrlsOf(project).some((u) => u.startsWith('template-media:'))).toBe(false);
    }
  });

  it('saves a project with its local media copied and fingerprinted, and makes it again elsewhere', async () => {
    const lib = library(join(dir, 'no-starters'));
    const { project, logo } = projectWithMedia();
    const saved = await lib.save(project, {
      name: 'Weekly update',
      description: 'Mondays',
      thumbnail: `data:image/png;base64,${PNG.toString('base64')}`,
    });
    expect(saved).toMatchObject({
      name: 'Weekly update',
      description: 'Mondays',
      starter: false,
      scenes: 1,
      thumbnail: `data:image/png;base64,${PNG.toString('base64')}`,
    });
    const folder = join(dir, 'data', 'templates', saved.id.slice('user:'.length));
    const file = JSON.parse(readFileSync(join(folder, 'template.json'), 'utf8'));
    const sha = createHash('sha256').update(PNG).digest('hex');
    expect(file.media).toEqual([{ file: `${sha.slice(0, 16)}.png`, sha256: sha }]);
    expect(readFileSync(join(folder, 'media', `${sha.slice(0, 16)}.png`))).toEqual(PNG);
    expect(JSON.stringify(file.project)).not.toContain(logo);
    // Nothing half-written is left beside it.
    expect(readdirSync(join(dir, 'data', 'templates'))).toEqual([saved.id.slice('user:'.length)]);

    rmSync(join(dir, 'mine'), { recursive: true });
    const made = await lib.instantiate(saved.id, join(dir, 'imports'));
    const [a, b, c] = made.scenes[0].elements.map((e) => e.url);
    expect(a).toBe(b);
    expect(c).toBe('https://example.com/a.png');
    expect(readFileSync(fileURLToPath(a))).toEqual(PNG);
  });

  it('refuses to keep a local file the studio was not given, and leaves no folder behind', async () => {
    const lib = library(join(dir, 'no-starters'));
    const { project, logo } = projectWithMedia();
    granted.delete(logo);
    await expect(lib.save(project, { name: 'X' })).rejects.toThrow(/was not given that file/);
    expect(existsSync(join(dir, 'data', 'templates')) ? readdirSync(join(dir, 'data', 'templates')) : []).toEqual([]);
  });

  it('a malformed template is refused with what is wrong, listed as unreadable, and never rewritten', async () => {
    const lib = library(join(dir, 'no-starters'));
    const good = await lib.save(projectWithMedia().project, { name: 'Good' });
    const broken = join(dir, 'data', 'templates', 'broken');
    mkdirSync(broken, { recursive: true });
    const text =
      '{"format": 1, "name": "Broken", "description": "", "createdAt": 1, "media": [], "thumbnail": null, "project": {"schemaVersion": 2, "scenes": []}}';
    writeFileSync(join(broken, 'template.json'), text);
    const notJson = join(dir, 'data', 'templates', 'truncated');
    mkdirSync(notJson);
    writeFileSync(join(notJson, 'template.json'), '{"format": 1, "na');

    const { templates, unreadable } = await lib.list();
    expect(templates.map((t) => t.id)).toEqual([good.id]);
    expect(unreadable.map((u) => u.folder).sort()).toEqual([broken, notJson]);
    expect(unreadable.find((u) => u.folder === notJson)!.error).toMatch(/template\.json is not valid JSON/);
    await expect(lib.instantiate('user:broken', join(dir, 'imports'))).rejects.toThrow(
      /The template "Broken" .* cannot be used\. Invalid project:\nid: /,
    );
    expect(readFileSync(join(broken, 'template.json'), 'utf8')).toBe(text);
    expect(readFileSync(join(notJson, 'template.json'), 'utf8')).toBe('{"format": 1, "na');
  });

  it('a damaged media file is refused by name and the template left as it is', async () => {
    const lib = library(join(dir, 'no-starters'));
    const saved = await lib.save(projectWithMedia().project, { name: 'Good' });
    const media = join(dir, 'data', 'templates', saved.id.slice('user:'.length), 'media');
    const [name] = readdirSync(media);
    writeFileSync(join(media, name), 'not the picture');
    await expect(lib.instantiate(saved.id, join(dir, 'imports'))).rejects.toThrow(
      new RegExp(`changed or damaged media/${name.replace('.', '\\.')}`),
    );
    expect(readFileSync(join(media, name), 'utf8')).toBe('not the picture');
  });

  it('a starter template cannot be removed; a user template can', async () => {
    const lib = library();
    await expect(lib.remove('starter:talking-head')).rejects.toThrow(/starter template cannot be removed/);
    const saved = await lib.save(projectWithMedia().project, { name: 'Mine' });
    await lib.remove(saved.id);
    expect((await lib.list()).templates.some((t) => t.id === saved.id)).toBe(false);
    await expect(lib.instantiate('user:../../etc', join(dir, 'imports'))).rejects.toThrow(/No template/);
  });

  it('projects.create from a template with the brand kit: stored under a fresh id, branded, avatars matched to the catalogue', async () => {
    const base = createMemoryHostBase({ dataDir: join(dir, 'data') });
    const lib = library();
    const templatesDomain = createTemplatesDomain(base, lib);
    await templatesDomain.handlers['brand.set']({
      ...DEFAULT_BRAND_KIT,
      colours: { ...DEFAULT_BRAND_KIT.colours, background: '#123456' },
    });
    const projects = new ProjectLibrary({
      dataDir: join(dir, 'data'),
      createStore: base.createStore,
      newId: () => 'fresh',
    });
    const domain = createProjectsDomain(base, projects, (request) =>
      startProject(request, {
        templates: lib,
        brandKit: templatesDomain.brandKit,
        measure: async (style) => ({
          width: style.content.length * style.fontSize * 0.5,
          height: style.fontSize * 1.2,
        }),
        catalogue: async () => ({
          avatars: [{ avatarId: 'SandboxAnna', url: 'http://127.0.0.1:9/anna.mp4', from: 2 }],
          voices: ['sandbox_ava'],
        }),
        importsDir: join(dir, 'data', 'imports'),
        log: base.log,
      }),
    );
    const opened = await domain.handlers['projects.create']({
      kind: 'avatar-video',
      preset: '16:9-1080p',
      template: 'starter:training-slides',
      brand: true,
      name: 'Onboarding',
    });
    expect(opened.project).toMatchObject({ id: 'fresh', name: 'Onboarding', background: '#123456' });
    const avatars = opened.project.scenes.flatMap((s) => s.elements).filter((e) => e.type === 'avatar');
    expect(avatars.every((a) => a.url === 'http://127.0.0.1:9/anna.mp4')).toBe(true);
    const title = opened.project.scenes[0].elements.find((e) => e.role === 'title')!;
    expect(title.text!.colour).toBe(DEFAULT_BRAND_KIT.colours.text);
    expect(existsSync(join(dir, 'data', 'projects', 'fresh.json'))).toBe(true);
  });
});
