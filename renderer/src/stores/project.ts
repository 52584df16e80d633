import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import {
  DocumentHistory,
  addElement,
  addScene as addSceneOp,
  bringForward as bringForwardOp,
  createProject,
  deleteElement,
  duplicateElement,
  duplicateScene as duplicateSceneOp,
  freshIds,
  moveElement,
  moveScene as moveSceneOp,
  nextId,
  removeScene as removeSceneOp,
  scaleElement,
  sendBackward as sendBackwardOp,
  setElementLocked,
  setSceneDuration as setSceneDurationOp,
  setSceneVoice as setSceneVoiceOp,
  reorderLayers,
  stackingOrder,
  updateElement,
  addTextElement,
  setTextStyle,
  withFontRecords,
  type ElementDraft,
  type ElementRole,
  type MediaSize,
  type TextStyle,
  type ElementPatch,
  type Project,
  type Scene,
  type SceneElement,
  type Voice,
} from '@common/composition';
import type { MoveCommit, ResizeCommit } from '@/canvas/types';

/** Nudges within this many milliseconds of each other count as one gesture (one undo step). */
const NUDGE_COALESCE_MS = 800;
const PASTE_SHIFT = 24;

/**
 * The open project. Thin by design: every change is one pure operation from @common/composition
 * applied to the current document and committed to the history once, when the gesture is finished.
 */
export const useProjectStore = defineStore('project', () => {
  const history = shallowRef(new DocumentHistory<Project>(blankProject()));
  /** The document; replaced (never mutated) on every change. */
  const doc = shallowRef<Project>(history.value.present);
  /** Document as last saved, to tell whether there are unsaved changes. */
  const savedDoc = shallowRef<Project | null>(doc.value);
  /** Where the project lives for the projects service (its id or path); null until first saved. */
  const fileRef = ref<string | null>(null);
  const currentSceneId = ref(doc.value.scenes[0].id);
  const selectedIds = ref<string[]>([]);
  const lastError = ref<string | null>(null);
  /** Bumped on every history move so computed flags re-evaluate (the history itself is not reactive). */
  const revision = ref(0);
  let clipboard: SceneElement[] = [];
  let lastNudge = { at: 0, key: '' };

  const currentScene = computed<Scene>(
    () => doc.value.scenes.find((s) => s.id === currentSceneId.value) ?? doc.value.scenes[0],
  );
  const currentSceneIndex = computed(() => doc.value.scenes.findIndex((s) => s.id === currentScene.value.id));
  const selectedElements = computed(() => currentScene.value.elements.filter((e) => selectedIds.value.includes(e.id)));
  const canUndo = computed(() => revision.value >= 0 && history.value.canUndo);
  const canRedo = computed(() => revision.value >= 0 && history.value.canRedo);
  const dirty = computed(() => doc.value !== savedDoc.value);

  function sync(next: Project): void {
    doc.value = next;
    revision.value += 1;
    if (!next.scenes.some((s) => s.id === currentSceneId.value)) currentSceneId.value = next.scenes[0].id;
    const ids = new Set(currentScene.value.elements.map((e) => e.id));
    if (selectedIds.value.some((id) => !ids.has(id))) selectedIds.value = selectedIds.value.filter((id) => ids.has(id));
  }

  /** Applies one finished gesture. Errors from the operations are kept for the UI, not thrown. */
  function apply(change: (project: Project) => Project): boolean {
    try {
      // The project's record of the fonts its text uses follows every change (a delete or paste too).
      const next = withFontRecords(change(doc.value));
      lastError.value = null;
      if (next === doc.value) return false;
      sync(history.value.commit(next));
      return true;
    } catch (error) {
      lastError.value = (error as Error).message;
      return false;
    }
  }

  function sceneId(): string {
    return currentScene.value.id;
  }

  // ---- document lifecycle ----
  function load(project: Project, location: string | null, saved = true): void {
    history.value = new DocumentHistory(project);
    fileRef.value = location;
    savedDoc.value = saved ? project : null;
    selectedIds.value = [];
    currentSceneId.value = project.scenes[0].id;
    sync(project);
  }

  function markSaved(location: string | null, saved: Project = doc.value): void {
    fileRef.value = location;
    savedDoc.value = saved;
  }

  function undo(): void {
    if (!history.value.canUndo) return;
    sync(history.value.undo());
  }

  function redo(): void {
    if (!history.value.canRedo) return;
    sync(history.value.redo());
  }

  // ---- selection and scenes ----
  function select(ids: string[]): void {
    selectedIds.value = [...new Set(ids)];
  }

  function selectScene(id: string): void {
    if (id === currentSceneId.value) return;
    currentSceneId.value = id;
    selectedIds.value = [];
  }

  function addScene(): void {
    const id = nextId(doc.value, 'scene');
    if (apply((p) => addSceneOp(p, { afterSceneId: sceneId(), id }))) selectScene(id);
  }

  function removeScene(id: string): void {
    apply((p) => removeSceneOp(p, id));
  }

  function duplicateScene(id: string): void {
    const newId = nextId(doc.value, 'scene');
    if (apply((p) => duplicateSceneOp(p, id, newId))) selectScene(newId);
  }

  function moveScene(id: string, toIndex: number): void {
    apply((p) => moveSceneOp(p, id, toIndex));
  }

  function setSceneDuration(id: string, ms: number): void {
    apply((p) => setSceneDurationOp(p, id, ms));
  }

  function setSceneVoice(id: string, voice: Voice | null): void {
    apply((p) => setSceneVoiceOp(p, id, voice));
  }

  // ---- elements ----
  function addToScene(draft: ElementDraft): string | null {
    const id = draft.id ?? nextId(doc.value, 'el');
    if (!apply((p) => addElement(p, sceneId(), { ...draft, id }))) return null;
    selectedIds.value = [id];
    return id;
  }

  /** Adds a text element measured at `natural` (the rasteriser's layout) and selects it. */
  function addText(
    style: TextStyle,
    natural: MediaSize,
    place: 'centre' | 'lower-left',
    role?: ElementRole,
  ): string | null {
    const id = nextId(doc.value, 'el');
    if (!apply((p) => addTextElement(p, sceneId(), style, natural, { id, place, role }))) return null;
    selectedIds.value = [id];
    return id;
  }

  /** One style edit of a text element (one undo step); it keeps its scale. */
  function restyleText(id: string, style: TextStyle, natural: MediaSize): void {
    apply((p) => setTextStyle(p, sceneId(), id, style, natural));
  }

  function moveElements(commits: MoveCommit[]): void {
    apply((p) => commits.reduce((acc, c) => moveElement(acc, sceneId(), c.id, c.x, c.y), p));
  }

  function resizeElement(commit: ResizeCommit): void {
    apply((p) => scaleElement(p, sceneId(), commit.id, commit.width, commit.height, { x: commit.x, y: commit.y }));
  }

  function patchElement(id: string, patch: ElementPatch): void {
    apply((p) => updateElement(p, sceneId(), id, patch));
  }

  /** Keyboard nudge; repeated presses in quick succession are one undo step. */
  function nudge(dx: number, dy: number, now = Date.now()): void {
    const targets = selectedElements.value.filter((e) => !e.locked);
    if (targets.length === 0) return;
    const key = targets.map((e) => e.id).join(',');
    const coalesce = now - lastNudge.at < NUDGE_COALESCE_MS && lastNudge.key === key && history.value.canUndo;
    const next = targets.reduce((acc, e) => moveElement(acc, sceneId(), e.id, e.x + dx, e.y + dy), doc.value);
    if (next === doc.value) return;
    // Replacing the previous nudge entry keeps a held arrow key from flooding the history.
    if (coalesce) history.value.undo();
    sync(history.value.commit(next));
    lastNudge = { at: now, key };
  }

  /** Puts an element at a stacking position (1 = bottom); the scene's layers are renumbered 1..n. */
  function setLayerPosition(id: string, position: number): void {
    apply((p) => {
      const scene = p.scenes.find((s) => s.id === sceneId()) ?? p.scenes[0];
      const order = stackingOrder(scene.elements)
        .map((e) => e.id)
        .filter((e) => e !== id);
      const at = Math.max(0, Math.min(order.length, Math.round(position) - 1));
      order.splice(at, 0, id);
      return reorderLayers(p, scene.id, order);
    });
  }

  function forEachSelected(change: (p: Project, id: string) => Project): void {
    const ids = [...selectedIds.value];
    if (ids.length > 0) apply((p) => ids.reduce((acc, id) => change(acc, id), p));
  }

  const bringForward = (): void => forEachSelected((p, id) => bringForwardOp(p, sceneId(), id));
  const sendBackward = (): void => forEachSelected((p, id) => sendBackwardOp(p, sceneId(), id));
  /**
   * Deletes the unlocked part of the selection. A lock (the brand kit's logo has one) means "leave this
   * alone", so select-all then Delete keeps it; the user unlocks an element to delete it.
   */
  function deleteSelected(): void {
    const ids = selectedElements.value.filter((e) => !e.locked).map((e) => e.id);
    if (ids.length > 0) apply((p) => ids.reduce((acc, id) => deleteElement(acc, sceneId(), id), p));
  }

  function toggleLock(): void {
    const lock = selectedElements.value.some((e) => !e.locked);
    forEachSelected((p, id) => setElementLocked(p, sceneId(), id, lock));
  }

  function duplicateSelected(): void {
    const ids = freshIds(doc.value, 'el', selectedIds.value.length);
    const pairs = selectedIds.value.map((id, i) => [id, ids[i]] as const);
    if (pairs.length === 0) return;
    if (apply((p) => pairs.reduce((acc, [from, to]) => duplicateElement(acc, sceneId(), from, { id: to }), p))) {
      selectedIds.value = ids;
    }
  }

  function copySelected(): SceneElement[] {
    clipboard = selectedElements.value.map((e) => ({ ...e }));
    return clipboard;
  }

  function cutSelected(): void {
    copySelected();
    deleteSelected();
  }

  /** Pastes copied elements into the current scene, shifted so the copies are visible. */
  function paste(elements: SceneElement[] = clipboard): void {
    if (elements.length === 0) return;
    const ids = freshIds(doc.value, 'el', elements.length);
    const ok = apply((p) =>
      elements.reduce((acc, e, i) => {
        const { layer: _layer, locked: _locked, ...rest } = e;
        return addElement(acc, sceneId(), { ...rest, id: ids[i], x: e.x + PASTE_SHIFT, y: e.y + PASTE_SHIFT });
      }, p),
    );
    if (ok) selectedIds.value = ids;
  }

  return {
    doc,
    fileRef,
    currentSceneId,
    currentScene,
    currentSceneIndex,
    selectedIds,
    selectedElements,
    lastError,
    canUndo,
    canRedo,
    dirty,
    revision,
    apply,
    load,
    markSaved,
    undo,
    redo,
    select,
    selectScene,
    addScene,
    removeScene,
    duplicateScene,
    moveScene,
    setSceneDuration,
    setSceneVoice,
    addToScene,
    moveElements,
    resizeElement,
    patchElement,
    addText,
    restyleText,
    setLayerPosition,
    nudge,
    bringForward,
    sendBackward,
    deleteSelected,
    toggleLock,
    duplicateSelected,
    copySelected,
    cutSelected,
    paste,
  };
});

function blankProject(): Project {
  // A draft gets a random id so its autosave never collides with another draft's.
  const id = `draft-${globalThis.crypto?.randomUUID?.() ?? Date.now().toString(36)}`;
  return createProject({ kind: 'avatar-video', output: '16:9-1080p', id, name: 'Untitled project' });
}
