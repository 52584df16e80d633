import { z } from 'zod';
import { OutputPresetId, OutputSize, Project, ProjectKind } from '../composition/document';
import { call } from './contract';

/**
 * Projects on disk. The renderer names projects by id only; the host decides where files live (the
 * app's project library, or a file the user picked in a native dialog). Writes are atomic; a file that
 * fails to load is left untouched and the error says what is wrong.
 */
export const ProjectSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: ProjectKind,
  output: OutputSize,
  scenes: z.number().int(),
  durationMs: z.number(),
  /** Last save (epoch ms). */
  updatedAt: z.number(),
  /** Where it is, for display: "Project library" or the file the user chose. */
  location: z.string(),
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

export const OpenedProject = z.object({
  project: Project,
  summary: ProjectSummary,
  /** True when this is unsaved work restored from an autosave. */
  recovered: z.boolean(),
});
export type OpenedProject = z.infer<typeof OpenedProject>;

export const RecoveryEntry = z.object({
  id: z.string(),
  name: z.string(),
  /** When the autosave was written. */
  autosavedAt: z.number(),
  /** When the project was last saved properly; null when it never was. */
  savedAt: z.number().nullable(),
});
export type RecoveryEntry = z.infer<typeof RecoveryEntry>;

export const NewProjectRequest = z.object({
  kind: ProjectKind,
  preset: OutputPresetId,
  /** A custom output frame; wins over the preset. */
  size: OutputSize.optional(),
  name: z.string().trim().max(200).optional(),
  /** Start from this template (its frame and kind win over `kind`, `preset` and `size`). */
  template: z.string().min(1).max(160).optional(),
  /** Apply the data folder's brand kit to the new project. */
  brand: z.boolean().optional(),
});
export type NewProjectRequest = z.infer<typeof NewProjectRequest>;

const projectId = z.string().min(1).max(100);

export const projectsCalls = {
  /** Recently opened or saved projects, newest first. */
  'projects.listRecent': call(z.tuple([]), z.array(ProjectSummary)),
  /** Names by id, for projects known to the library even if no longer recent; null when unknown. */
  'projects.names': call(z.tuple([z.array(projectId).max(1000)]), z.record(z.string(), z.string().nullable())),
  /** Whether this host can show native open/save dialogs (the web host cannot). */
  'projects.capabilities': call(z.tuple([]), z.object({ dialogs: z.boolean() })),
  'projects.create': call(z.tuple([NewProjectRequest]), OpenedProject),
  'projects.open': call(z.tuple([projectId]), OpenedProject),
  /** Native open dialog; null when the user cancelled. Fails on a host without dialogs. */
  'projects.openDialog': call(z.tuple([]), OpenedProject.nullable()),
  /** A project from JSON text (the web host's import); stored as a new project in the library. */
  'projects.importJson': call(z.tuple([z.string().max(20 * 1024 * 1024)]), OpenedProject),
  /** Saves where the project already lives; clears its autosave. */
  'projects.save': call(z.tuple([Project]), ProjectSummary),
  /**
   * Saves a copy under a new id: to a file chosen in a native dialog, or into the library (no
   * dialogs) with the given name. Null when the user cancelled the dialog.
   */
  'projects.saveAs': call(
    z.tuple([Project, z.object({ name: z.string().trim().min(1).max(200).optional() })]),
    OpenedProject.nullable(),
  ),
  /** Keeps unsaved work safe; offered back by listRecovery after a crash or an unsaved quit. */
  'projects.autosave': call(z.tuple([Project]), z.object({ autosavedAt: z.number() })),
  'projects.listRecovery': call(z.tuple([]), z.array(RecoveryEntry)),
  'projects.restoreRecovery': call(z.tuple([projectId]), OpenedProject),
  'projects.discardRecovery': call(z.tuple([projectId]), z.void()),
  /** Forgets a project in the recent list (its file stays). */
  'projects.forget': call(z.tuple([projectId]), z.void()),
};

export const projectsEvents = {
  /**
   * A scene's voiceover job completed and its audio is ready. The project file was updated on disk
   * already (when its scene still asks for that script); an editor holding the project applies it too.
   */
  'projects.voiceoverReady': z.object({
    projectId: z.string(),
    sceneId: z.string(),
    scriptHash: z.string(),
    audioUrl: z.string(),
  }),
};
