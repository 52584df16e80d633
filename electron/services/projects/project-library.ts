import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { OpenedProject, ProjectSummary, RecoveryEntry } from '../../common/bridge/projects';
import {
  Project,
  parseProject,
  type OutputPresetId,
  type OutputSize,
  type ProjectKind,
} from '../../common/composition/document';
import { createProject, totalDurationMs } from '../../common/composition/project-ops';
import { applyVoiceoverAudio } from '../../common/composition/scene-ops';
import { StudioError } from '../host/errors';
import type { RecordStore, RecordStoreFactory, RecordStoreSpec } from '../host/types';
import { writeFileAtomic } from './atomic-file';

/**
 * Where projects live. New and imported projects go to the app's library folder
 * (<dataDir>/projects/<id>.json); a project opened from or saved to a file the user chose stays there.
 * An index record maps ids to files, so the renderer only ever names ids. Autosaves sit in
 * <dataDir>/projects/autosave/<id>.json until the project is saved or the autosave discarded: whatever
 * is still there at start-up is unsaved work to offer back (after a crash, or a quit without saving).
 */
const IndexEntry = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  openedAt: z.number(),
  savedAt: z.number().optional(),
});
const ProjectIndex = z.object({ recent: z.array(IndexEntry) });
type ProjectIndex = z.infer<typeof ProjectIndex>;

const Autosave = z.object({ autosavedAt: z.number(), project: z.unknown() });

export const LIBRARY_LABEL = 'Project library';
/** One spec object, so every library on a host (projects domain, downloads' project names) shares the store. */
const projectIndexSpec: RecordStoreSpec<ProjectIndex> = {
  name: 'projects',
  schema: ProjectIndex,
  defaults: { recent: [] },
  version: 1,
};
const MAX_RECENT = 30;

export interface ProjectLibraryDeps {
  dataDir: string;
  createStore: RecordStoreFactory;
  now?: () => number;
  newId?: () => string;
}

export class ProjectLibrary {
  private readonly index: RecordStore<ProjectIndex>;
  private readonly now: () => number;
  private readonly newId: () => string;
  readonly libraryDir: string;
  readonly autosaveDir: string;

  constructor(deps: ProjectLibraryDeps) {
    this.index = deps.createStore(projectIndexSpec);
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? randomUUID;
    this.libraryDir = join(deps.dataDir, 'projects');
    this.autosaveDir = join(this.libraryDir, 'autosave');
  }

  async listRecent(): Promise<ProjectSummary[]> {
    const entries = this.index.get().recent;
    const summaries = await Promise.all(
      entries.map(async (entry) => {
        const loaded = await this.readProject(entry.path).catch(() => null);
        return loaded ? this.summarise(loaded.project, entry.path, loaded.updatedAt) : null;
      }),
    );
    return summaries.filter((s): s is ProjectSummary => s !== null);
  }

  /** A project's name by id: a recent one, or one kept in the library folder; null when unknown. */
  async nameOf(id: string): Promise<string | null> {
    const path = this.index.get().recent.find((e) => e.id === id)?.path ?? this.libraryPath(id);
    return (await this.readProject(path).catch(() => null))?.project.name ?? null;
  }

  async create(options: {
    kind: ProjectKind;
    preset: OutputPresetId;
    size?: OutputSize;
    name?: string;
  }): Promise<OpenedProject> {
    const project = createProject({
      id: this.newId(),
      kind: options.kind,
      output: options.size ?? options.preset,
      name: options.name || undefined,
    });
    return this.store(project, this.libraryPath(project.id));
  }

  /** A project made elsewhere (from a template, or with the brand kit): stored in the library under a fresh id. */
  async adopt(project: Project): Promise<OpenedProject> {
    const fresh = { ...project, id: this.newId() };
    return this.store(fresh, this.libraryPath(fresh.id));
  }

  async open(id: string): Promise<OpenedProject> {
    const entry = this.entry(id);
    const { project, updatedAt } = await this.readProject(entry.path);
    this.remember(project.id === id ? project : { ...project, id }, entry.path);
    return {
      project: { ...project, id },
      summary: this.summarise({ ...project, id }, entry.path, updatedAt),
      recovered: false,
    };
  }

  /** The project as last saved, without touching the recent list; null when it is not known or not readable. */
  async read(id: string): Promise<Project | null> {
    const entry = this.index.get().recent.find((e) => e.id === id);
    return entry
      ? this.readProject(entry.path).then(
          (r) => ({ ...r.project, id }),
          () => null,
        )
      : null;
  }

  /** Opens a file the user picked; a project already known under another file gets a fresh id. */
  async openFile(path: string): Promise<OpenedProject> {
    const { project, updatedAt } = await this.readProject(path);
    const known = this.index.get().recent.find((e) => e.id === project.id);
    const id = known && known.path !== path ? this.newId() : project.id;
    const opened = { ...project, id };
    this.remember(opened, path);
    return { project: opened, summary: this.summarise(opened, path, updatedAt), recovered: false };
  }

  /** JSON text from the renderer (web import): validated, then stored in the library as a new project. */
  async importJson(text: string): Promise<OpenedProject> {
    const parsed = parseProject(text);
    if (!parsed.ok)
      throw new StudioError(`This file is not a project the studio can open. ${parsed.error}`, 'invalid-project');
    const project = { ...parsed.project, id: this.newId() };
    return this.store(project, this.libraryPath(project.id));
  }

  async save(project: Project): Promise<ProjectSummary> {
    const known = this.index.get().recent.find((e) => e.id === project.id);
    const path = known?.path ?? this.libraryPath(project.id);
    const saved = await this.store(project, path);
    await this.discardRecovery(project.id);
    return saved.summary;
  }

  /** A copy under a new id, at `path` (chosen in a dialog) or in the library. */
  async saveAs(project: Project, options: { path?: string; name?: string }): Promise<OpenedProject> {
    const copy = { ...project, id: this.newId(), name: options.name ?? project.name };
    return this.store(copy, options.path ?? this.libraryPath(copy.id));
  }

  async autosave(project: Project): Promise<{ autosavedAt: number }> {
    const autosavedAt = this.now();
    await writeFileAtomic(this.autosavePath(project.id), JSON.stringify({ autosavedAt, project }));
    return { autosavedAt };
  }

  async listRecovery(): Promise<RecoveryEntry[]> {
    const names = await readdir(this.autosaveDir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names
        .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
        .map(async (name) => {
          const saved = await this.readAutosaveFile(join(this.autosaveDir, name)).catch(() => null);
          if (!saved) return null;
          const id = saved.project.id;
          const known = this.index.get().recent.find((e) => e.id === id);
          const savedAt = known ? (known.savedAt ?? (await mtime(known.path))) : null;
          // Saved after the autosave: nothing to recover.
          if (savedAt !== null && savedAt >= saved.autosavedAt) return null;
          return { id, name: saved.project.name, autosavedAt: saved.autosavedAt, savedAt };
        }),
    );
    return entries.filter((e): e is RecoveryEntry => e !== null).sort((a, b) => b.autosavedAt - a.autosavedAt);
  }

  async restoreRecovery(id: string): Promise<OpenedProject> {
    const saved = await this.readAutosave(id);
    const known = this.index.get().recent.find((e) => e.id === id);
    const path = known?.path ?? this.libraryPath(id);
    return { project: saved.project, summary: this.summarise(saved.project, path, saved.autosavedAt), recovered: true };
  }

  async discardRecovery(id: string): Promise<void> {
    await rm(this.autosavePath(id), { force: true });
  }

  /**
   * A finished voiceover reaching a project that may not be open: its saved file and its autosave both
   * get the audio when their scene still asks for that script. True when either took it.
   */
  async applyVoiceover(projectId: string, sceneId: string, scriptHash: string, audioUrl: string): Promise<boolean> {
    let applied = false;
    const known = this.index.get().recent.find((e) => e.id === projectId);
    if (known) {
      const saved = await this.readProject(known.path).catch(() => null);
      const next = saved && applyVoiceoverAudio({ ...saved.project, id: projectId }, sceneId, scriptHash, audioUrl);
      if (saved && next && next !== saved.project) {
        await writeFileAtomic(
          known.path,
          `${JSON.stringify(Project.parse({ ...next, id: saved.project.id }), null, 2)}\n`,
        );
        applied = true;
      } else if (next) applied = true;
    }
    const autosave = await this.readAutosave(projectId).catch(() => null);
    const draft = autosave && applyVoiceoverAudio(autosave.project, sceneId, scriptHash, audioUrl);
    if (autosave && draft && draft !== autosave.project) {
      await writeFileAtomic(
        this.autosavePath(projectId),
        JSON.stringify({ autosavedAt: autosave.autosavedAt, project: draft }),
      );
      applied = true;
    }
    return applied;
  }

  forget(id: string): void {
    this.index.update((current) => ({ recent: current.recent.filter((e) => e.id !== id) }));
  }

  private async store(project: Project, path: string): Promise<OpenedProject> {
    const checked = Project.parse(project);
    await writeFileAtomic(path, `${JSON.stringify(checked, null, 2)}\n`);
    const savedAt = this.now();
    this.remember(checked, path, savedAt);
    return { project: checked, summary: this.summarise(checked, path, savedAt), recovered: false };
  }

  private async readProject(path: string): Promise<{ project: Project; updatedAt: number }> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new StudioError(
        `Cannot open ${basename(path)}: ${code === 'ENOENT' ? 'the file no longer exists' : (error as Error).message}`,
        'project-unreadable',
      );
    }
    const parsed = parseProject(text);
    if (!parsed.ok)
      throw new StudioError(
        `Cannot open ${basename(path)} (the file was left as it is). ${parsed.error}`,
        'invalid-project',
      );
    return { project: parsed.project, updatedAt: (await mtime(path)) ?? this.now() };
  }

  private readAutosave(id: string): Promise<{ project: Project; autosavedAt: number }> {
    return this.readAutosaveFile(this.autosavePath(id), id);
  }

  private async readAutosaveFile(
    path: string,
    id = basename(path, '.json'),
  ): Promise<{ project: Project; autosavedAt: number }> {
    const raw = Autosave.safeParse(JSON.parse(await readFile(path, 'utf8').catch(() => 'null')));
    if (!raw.success) throw new StudioError(`No unsaved work is kept for project ${id}.`, 'no-recovery');
    const parsed = parseProject(raw.data.project);
    if (!parsed.ok)
      throw new StudioError(`The unsaved work of project ${id} cannot be restored. ${parsed.error}`, 'invalid-project');
    return { project: parsed.project, autosavedAt: raw.data.autosavedAt };
  }

  private entry(id: string): z.infer<typeof IndexEntry> {
    const entry = this.index.get().recent.find((e) => e.id === id);
    if (!entry) throw new StudioError(`No project with id ${id} is known; open it from its file.`, 'unknown-project');
    return entry;
  }

  private remember(project: Project, path: string, savedAt?: number): void {
    const previous = this.index.get().recent.find((e) => e.id === project.id && e.path === path);
    const entry = {
      id: project.id,
      path,
      name: project.name,
      openedAt: this.now(),
      savedAt: savedAt ?? previous?.savedAt,
    };
    this.index.update((current) => ({
      recent: [entry, ...current.recent.filter((e) => e.id !== project.id && e.path !== path)].slice(0, MAX_RECENT),
    }));
  }

  private summarise(project: Project, path: string, updatedAt: number): ProjectSummary {
    return {
      id: project.id,
      name: project.name,
      kind: project.kind,
      output: project.output,
      scenes: project.scenes.length,
      durationMs: totalDurationMs(project),
      updatedAt,
      location: path.startsWith(this.libraryDir) ? LIBRARY_LABEL : path,
    };
  }

  private libraryPath(id: string): string {
    return join(this.libraryDir, `${safeFileId(id)}.json`);
  }

  private autosavePath(id: string): string {
    return join(this.autosaveDir, `${safeFileId(id)}.json`);
  }
}

function safeFileId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'project';
}

async function mtime(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null);
  return info ? Math.round(info.mtimeMs) : null;
}
