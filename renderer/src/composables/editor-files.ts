import { computed, getCurrentScope, onScopeDispose, ref, shallowRef, watch } from 'vue';
import type { DropdownOption } from 'naive-ui';
import type { NewProjectRequest, OpenedProject, ProjectSummary, RecoveryEntry } from '@common/bridge/projects';
import { parseProject, type Project } from '@common/composition';
import type { useProjectStore } from '@/stores/project';
import { lastProjectId, rememberLastProject } from './last-project';

type ProjectStore = ReturnType<typeof useProjectStore>;

/** The projects service as the editor uses it (the bridge in the app, a fake in tests). */
export interface ProjectsApi {
  capabilities(): Promise<{ dialogs: boolean }>;
  listRecent(): Promise<ProjectSummary[]>;
  create(request: NewProjectRequest): Promise<OpenedProject>;
  open(id: string): Promise<OpenedProject>;
  openDialog(): Promise<OpenedProject | null>;
  importJson(text: string): Promise<OpenedProject>;
  save(project: Project): Promise<ProjectSummary>;
  saveAs(project: Project, options: { name?: string }): Promise<OpenedProject | null>;
  autosave(project: Project): Promise<{ autosavedAt: number }>;
  listRecovery(): Promise<RecoveryEntry[]>;
  restoreRecovery(id: string): Promise<OpenedProject>;
  discardRecovery(id: string): Promise<void>;
}

export interface Notify {
  success(text: string): unknown;
  error(text: string): unknown;
  warning(text: string): unknown;
  info(text: string): unknown;
}

/**
 * The autosave follows the edits closely, so a host killed mid-edit loses well under a second of work:
 * written once edits pause this long, and at least this often while they go on without a pause.
 */
const AUTOSAVE_QUIET_MS = 400;
const AUTOSAVE_MAX_WAIT_MS = 1500;

/** The answer to "Save changes?" before the open project is replaced. */
export type LeaveChoice = 'save' | 'discard' | 'cancel';
export type AskSaveChanges = (name: string) => Promise<LeaveChoice>;

/**
 * New / open / save / save as / recent / autosave / recovery, through the projects service. The
 * host decides where files live; the editor only ever names projects by id.
 */
export function useEditorFiles(
  project: ProjectStore,
  notify: Notify,
  api: () => ProjectsApi | null,
  pick: FilePicker = browserPicker,
  ask: AskSaveChanges = async () => 'cancel',
) {
  const recent = shallowRef<ProjectSummary[]>([]);
  const recovery = shallowRef<RecoveryEntry[]>([]);
  const dialogs = ref(false);
  const saving = ref(false);
  const autosavedAt = ref<number | null>(null);
  const showNew = ref(false);
  const unavailable = computed(() =>
    api() ? null : 'Saving and opening projects is not available in this build yet.',
  );
  let autosaveTimer: ReturnType<typeof setTimeout> | null = null;

  const recentOptions = computed<DropdownOption[]>(() =>
    recent.value.map((r) => ({
      label: `${r.name} · ${r.scenes} scene${r.scenes === 1 ? '' : 's'}`,
      key: `recent:${r.id}`,
    })),
  );

  function report(error: unknown, what: string): void {
    notify.error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }

  async function refreshRecent(): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      recent.value = await projects.listRecent();
    } catch (error) {
      report(error, 'Recent projects could not be listed');
    }
  }

  // Whichever way a project came to be open (opened, created, saved as), it is the one a reload reopens.
  watch(
    () => project.fileRef,
    (id) => id && rememberLastProject(id),
  );

  function opened(result: OpenedProject): void {
    project.load(result.project, result.summary.id, !result.recovered);
    autosavedAt.value = null;
    autosavedId = null;
    if (result.recovered) notify.warning(`Recovered unsaved work of "${result.project.name}". Save it to keep it.`);
    void refreshRecent();
  }

  async function start(): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      dialogs.value = (await projects.capabilities()).dialogs;
      recovery.value = await projects.listRecovery();
    } catch (error) {
      report(error, 'Projects could not be reached');
    }
    await refreshRecent();
    // A reload opens the project the user last had open, unless there is work to recover (the banner
    // asks about that) or something is open already; one no longer among the recent ones is left alone.
    const last = lastProjectId();
    const untouched = !project.fileRef && !project.dirty && recovery.value.length === 0;
    if (last && untouched && recent.value.some((r) => r.id === last)) await open(last);
  }

  /**
   * Before the open project is replaced: with unsaved changes, asks Save / Don't save / Cancel.
   * True when it is safe to go on (saved, nothing to save, or the user chose to drop the changes).
   */
  async function leaveCurrent(): Promise<boolean> {
    if (!project.dirty) return true;
    const choice = await ask(project.doc.name);
    if (choice === 'cancel') return false;
    if (choice === 'save') {
      await save();
      return !project.dirty;
    }
    const projects = api();
    // Dropped on purpose: its autosave must not come back as "recovered" work.
    await settleAutosave();
    if (projects && project.fileRef) await projects.discardRecovery(project.fileRef).catch(() => undefined);
    return true;
  }

  async function create(request: NewProjectRequest): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      opened(await projects.create(request));
      showNew.value = false;
    } catch (error) {
      report(error, 'The project could not be created');
    }
  }

  async function open(id: string): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      opened(await projects.open(id));
    } catch (error) {
      report(error, 'The project could not be opened');
    }
  }

  /** Open: a native dialog where the host has one, else a JSON file from the browser. */
  async function openFile(): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      if (dialogs.value) {
        const result = await projects.openDialog();
        if (result) opened(result);
        return;
      }
      const text = await pick();
      if (text === null) return;
      // Checked here first so a bad file gets the document's own message; the host checks again.
      const parsed = parseProject(text);
      if (!parsed.ok) {
        notify.error(`That file is not a project this app can open. ${parsed.error}`);
        return;
      }
      opened(await projects.importJson(text));
    } catch (error) {
      report(error, 'The project could not be opened');
    }
  }

  async function save(): Promise<void> {
    const projects = api();
    if (!projects || saving.value) return;
    if (!project.fileRef) return saveAs();
    saving.value = true;
    await settleAutosave();
    const doc = project.doc;
    try {
      const summary = await projects.save(doc);
      project.markSaved(summary.id, doc);
      notify.success(`Saved "${summary.name}"`);
      void refreshRecent();
    } catch (error) {
      report(error, 'Not saved');
    } finally {
      saving.value = false;
    }
  }

  async function saveAs(name?: string): Promise<void> {
    const projects = api();
    if (!projects || saving.value) return;
    saving.value = true;
    await settleAutosave();
    try {
      const result = await projects.saveAs(project.doc, { name: name ?? project.doc.name });
      if (result) {
        project.load(result.project, result.summary.id, true);
        notify.success(`Saved as "${result.summary.name}" (${result.summary.location})`);
        void refreshRecent();
      }
    } catch (error) {
      report(error, 'Not saved');
    } finally {
      saving.value = false;
    }
  }

  function exportJson(): void {
    const blob = new Blob([JSON.stringify(project.doc, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${project.doc.name.replace(/[^\w.-]+/g, '_') || 'project'}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  async function restore(id: string): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      opened(await projects.restoreRecovery(id));
      recovery.value = recovery.value.filter((r) => r.id !== id);
    } catch (error) {
      report(error, 'The autosave could not be restored');
    }
  }

  async function discard(id: string): Promise<void> {
    const projects = api();
    if (!projects) return;
    try {
      await projects.discardRecovery(id);
      recovery.value = recovery.value.filter((r) => r.id !== id);
    } catch (error) {
      report(error, 'The autosave could not be discarded');
    }
  }

  async function onMenu(key: string): Promise<void> {
    if (key === 'save') return save();
    if (key === 'save-as') return saveAs();
    if (key === 'export') return exportJson();
    const replacing = key === 'new' || key === 'open' || key === 'import' || key.startsWith('recent:');
    if (replacing && !(await leaveCurrent())) return;
    if (key === 'new') showNew.value = true;
    else if (key === 'open' || key === 'import') await openFile();
    else if (key.startsWith('recent:')) await open(key.slice('recent:'.length));
  }

  // Autosave: shortly after each change, only for unsaved work of a project with an id. One write at a
  // time; a change made while one is on its way is written right after it.
  let pendingSince: number | null = null;
  let writing = false;
  let writeAgain = false;
  let failureShown = false;
  let inFlight: Promise<unknown> | null = null;
  // The project whose autosave this editor wrote since it was opened. Undoing back to the saved state
  // removes that autosave, else a reload would offer an in-between state as work to restore.
  let autosavedId: string | null = null;

  /**
   * Before a save or a deliberate drop: nothing waiting is written any more, and a write on its way
   * has landed, so no autosave newer than the save can offer the saved project back as recovered work.
   */
  async function settleAutosave(): Promise<void> {
    if (autosaveTimer) clearTimeout(autosaveTimer);
    autosaveTimer = null;
    pendingSince = null;
    writeAgain = false;
    await inFlight;
  }

  function writeAutosave(): void {
    autosaveTimer = null;
    pendingSince = null;
    const projects = api();
    const clean = !project.dirty;
    if (!projects || (clean && autosavedId !== project.doc.id)) return;
    if (writing) {
      writeAgain = true;
      return;
    }
    writing = true;
    const doc = project.doc;
    // A bridge that throws rather than rejects is an autosave failure like any other.
    inFlight = Promise.resolve()
      .then(async () => {
        if (clean) {
          await projects.discardRecovery(doc.id);
          autosavedId = null;
          autosavedAt.value = null;
        } else {
          autosavedId = doc.id;
          autosavedAt.value = (await projects.autosave(doc)).autosavedAt;
        }
        failureShown = false;
      })
      .catch(() => {
        // Once per outage: the next change tries again anyway.
        if (!failureShown) notify.warning('Autosave failed; save the project by hand.');
        failureShown = true;
      })
      .finally(() => {
        writing = false;
        inFlight = null;
        if (writeAgain) {
          writeAgain = false;
          writeAutosave();
        }
      });
  }

  // The editor going away (its window closing, a test ending) writes a pending autosave now rather
  // than leaving a timer behind that would write after its view and bridge are gone.
  if (getCurrentScope()) {
    onScopeDispose(() => {
      if (!autosaveTimer) return;
      clearTimeout(autosaveTimer);
      writeAutosave();
    });
  }

  watch(
    () => project.doc,
    () => {
      if (autosaveTimer) clearTimeout(autosaveTimer);
      autosaveTimer = null;
      const clean = !project.dirty;
      if (!api() || (clean && autosavedId !== project.doc.id)) {
        pendingSince = null;
        return;
      }
      const now = Date.now();
      pendingSince ??= now;
      // Back at the saved state the autosave goes at once: no unsaved-changes prompt holds a reload.
      const wait = clean ? 0 : Math.min(AUTOSAVE_QUIET_MS, pendingSince + AUTOSAVE_MAX_WAIT_MS - now);
      autosaveTimer = setTimeout(writeAutosave, Math.max(0, wait));
    },
  );

  return {
    recent,
    recentOptions,
    recovery,
    dialogs,
    saving,
    autosavedAt,
    showNew,
    unavailable,
    start,
    create,
    open,
    openFile,
    save,
    saveAs,
    restore,
    discard,
    leaveCurrent,
    onMenu,
  };
}

/** Picks a JSON file in the browser and reads it; null when cancelled. */
export type FilePicker = () => Promise<string | null>;

export const browserPicker: FilePicker = () =>
  new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (!file) return resolve(null);
      file.text().then(resolve, () => resolve(null));
    });
    input.addEventListener('cancel', () => resolve(null));
    input.click();
  });
