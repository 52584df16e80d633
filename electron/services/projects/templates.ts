import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SaveTemplateOptions, TemplateList, TemplateSummary } from '../../common/bridge/templates';
import { parseProject, type Project } from '../../common/composition/document';
import { totalDurationMs } from '../../common/composition/project-ops';
import {
  mapMediaUrls,
  mediaUrlsOf,
  TEMPLATE_FORMAT,
  TemplateFile,
  templateMediaFile,
  templateMediaReference,
  type TemplateMedia,
} from '../../common/composition/templates';
import { StudioError } from '../host/errors';
import { writeFileAtomic } from './atomic-file';

/**
 * Templates on disk: the starter templates shipped in resources/templates (read only) and the user's
 * own in <data folder>/templates/<id>/. See common/composition/templates.ts for a template folder's
 * layout and why local media are copied in. A folder whose template.json cannot be read is listed as
 * unreadable with the reason and never rewritten.
 */
export interface TemplateLibraryDeps {
  dataDir: string;
  /** The shipped starter templates (resources/templates). */
  startersDir: string;
  /** The path of a local reference the user granted, or null (only granted files are copied in). */
  pathOf: (url: string) => string | null;
  /** Grants a file (a template's media copied out for a new project) and returns its reference. */
  grant: (path: string) => string;
  now?: () => number;
}

const STARTER = 'starter:';
const USER = 'user:';
const FILE = 'template.json';

interface Loaded {
  id: string;
  folder: string;
  file: TemplateFile;
  project: Project;
}

export class TemplateLibrary {
  readonly userDir: string;
  private readonly now: () => number;

  constructor(private readonly deps: TemplateLibraryDeps) {
    this.userDir = join(deps.dataDir, 'templates');
    this.now = deps.now ?? Date.now;
  }

  async list(): Promise<TemplateList> {
    const unreadable: TemplateList['unreadable'] = [];
    const read = async (dir: string, prefix: string): Promise<Loaded[]> => {
      const names = (await readdir(dir, { withFileTypes: true }).catch(() => []))
        .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
        .map((d) => d.name);
      const loaded = await Promise.all(
        names.map((name) =>
          this.load(`${prefix}${name}`).catch((error: unknown) => {
            unreadable.push({ folder: join(dir, name), error: (error as Error).message });
            return null;
          }),
        ),
      );
      return loaded.filter((t): t is Loaded => t !== null);
    };
    const starters = (await read(this.deps.startersDir, STARTER)).sort((a, b) => a.file.createdAt - b.file.createdAt);
    const own = (await read(this.userDir, USER)).sort((a, b) => b.file.createdAt - a.file.createdAt);
    const templates = await Promise.all([...starters, ...own].map((t) => this.summarise(t)));
    return { templates, unreadable };
  }

  /** Keeps `project` as a new template; local media are copied into its folder with their fingerprints. */
  async save(project: Project, options: SaveTemplateOptions): Promise<TemplateSummary> {
    const slug =
      options.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 40) || 'template';
    const name = `${slug}-${randomBytes(4).toString('hex')}`;
    const folder = join(this.userDir, name);
    // Built under a hidden name and renamed at the end, so a half-written template is never listed.
    const building = join(this.userDir, `.${name}.part`);
    await mkdir(join(building, 'media'), { recursive: true });
    try {
      const media: TemplateMedia[] = [];
      const copies = new Map<string, string>();
      for (const url of mediaUrlsOf(project)) {
        if (!url.startsWith('file:')) continue;
        const path = this.deps.pathOf(url);
        if (!path)
          throw new StudioError(
            `The template cannot keep ${url}: the studio was not given that file (choose or drop it again).`,
            'not-allowed',
          );
        const bytes = await readFile(path).catch((error: Error) => {
          throw new StudioError(`The template cannot keep ${path}: ${error.message}`, 'template-media');
        });
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const file = `${sha256.slice(0, 16)}${safeExtension(path)}`;
        if (!media.some((m) => m.file === file)) {
          await writeFile(join(building, 'media', file), bytes);
          media.push({ file, sha256 });
        }
        copies.set(url, templateMediaReference(file));
      }
      const kept = mapMediaUrls(project, (url) => copies.get(url) ?? url);
      let thumbnail: string | null = null;
      if (options.thumbnail) {
        const [, type, data] = /^data:image\/(jpeg|png);base64,(.*)$/.exec(options.thumbnail)!;
        thumbnail = type === 'png' ? 'thumbnail.png' : 'thumbnail.jpg';
        await writeFile(join(building, thumbnail), Buffer.from(data, 'base64'));
      }
      const file: TemplateFile = {
        format: TEMPLATE_FORMAT,
        name: options.name,
        description: options.description ?? '',
        createdAt: this.now(),
        project: kept,
        media,
        thumbnail,
      };
      await writeFileAtomic(join(building, FILE), `${JSON.stringify(file, null, 2)}\n`);
      await rename(building, folder);
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      throw error;
    }
    return this.summarise(await this.load(`${USER}${name}`));
  }

  async remove(id: string): Promise<void> {
    if (!id.startsWith(USER)) throw new StudioError('A starter template cannot be removed.', 'starter-template');
    const folder = this.folderOf(id);
    if (!existsSync(join(folder, FILE)))
      throw new StudioError(`No template ${id.slice(USER.length)} exists.`, 'unknown-template');
    await rm(folder, { recursive: true, force: true });
  }

  /**
   * A template's project ready to become a new one: its media copied out (checked against their
   * fingerprints) into `importsDir` and granted, so the project does not depend on the template.
   */
  async instantiate(id: string, importsDir: string): Promise<Project> {
    const template = await this.load(id);
    const target = join(importsDir, `template-${randomBytes(6).toString('hex')}`);
    const urls = new Map<string, string>();
    for (const m of template.file.media) {
      const from = join(template.folder, 'media', m.file);
      const bytes = await readFile(from).catch(() => null);
      if (!bytes)
        throw new StudioError(
          `The template "${template.file.name}" is missing its file media/${m.file}; the template was left as it is.`,
          'template-media',
        );
      if (createHash('sha256').update(bytes).digest('hex') !== m.sha256) {
        throw new StudioError(
          `The template "${template.file.name}" has a changed or damaged media/${m.file} (its fingerprint differs); the template was left as it is.`,
          'template-media',
        );
      }
      await mkdir(target, { recursive: true });
      await copyFile(from, join(target, m.file));
      urls.set(templateMediaReference(m.file), this.deps.grant(join(target, m.file)));
    }
    const unknown = mediaUrlsOf(template.project).find((u) => templateMediaFile(u) !== null && !urls.has(u));
    if (unknown)
      throw new StudioError(
        `The template "${template.file.name}" names ${unknown}, which its media list does not hold.`,
        'invalid-template',
      );
    return mapMediaUrls(template.project, (url) => urls.get(url) ?? url);
  }

  /** Reads and checks one template; a bad file is refused with what is wrong and where. */
  async load(id: string): Promise<Loaded> {
    const folder = this.folderOf(id);
    const path = join(folder, FILE);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      const code = (error as { code?: string }).code;
      const why =
        code === 'ENOENT'
          ? 'it has no template.json'
          : error instanceof SyntaxError
            ? `template.json is not valid JSON (${error.message})`
            : (error as Error).message;
      throw new StudioError(`The template in ${folder} cannot be used: ${why}.`, 'invalid-template');
    }
    const parsed = TemplateFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new StudioError(
        `The template in ${folder} cannot be used: ${issue.path.join('.') || '(file)'}: ${issue.message}.`,
        'invalid-template',
      );
    }
    const project = parseProject(parsed.data.project);
    if (!project.ok)
      throw new StudioError(
        `The template "${parsed.data.name}" (${folder}) cannot be used. ${project.error}`,
        'invalid-template',
      );
    return { id, folder, file: parsed.data, project: project.project };
  }

  private async summarise(t: Loaded): Promise<TemplateSummary> {
    let thumbnail: string | null = null;
    if (t.file.thumbnail) {
      const bytes = await readFile(join(t.folder, t.file.thumbnail)).catch(() => null);
      if (bytes)
        thumbnail = `data:image/${t.file.thumbnail.endsWith('.png') ? 'png' : 'jpeg'};base64,${bytes.toString('base64')}`;
    }
    const { project } = t;
    return {
      id: t.id,
      name: t.file.name,
      description: t.file.description,
      starter: t.id.startsWith(STARTER),
      kind: project.kind,
      output: project.output,
      scenes: project.scenes.length,
      durationMs: totalDurationMs(project),
      thumbnail,
    };
  }

  private folderOf(id: string): string {
    const name = id.startsWith(STARTER) ? id.slice(STARTER.length) : id.startsWith(USER) ? id.slice(USER.length) : null;
    if (!name || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,150}$/.test(name))
      throw new StudioError(`No template ${id} exists.`, 'unknown-template');
    return join(id.startsWith(STARTER) ? this.deps.startersDir : this.userDir, name);
  }
}

function safeExtension(path: string): string {
  const ext = extname(path).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
}

/**
 * The starter templates shipped with the studio: resources/templates of the installation, found by
 * walking up from this module (the source tree, or the built bundle in out/).
 */
export function starterTemplatesDir(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'resources', 'templates');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(from, 'resources', 'templates');
  }
}
