import { onActivated, onDeactivated, onBeforeUnmount, onMounted } from 'vue';

/** What each editor shortcut does; the view passes the actions, this maps keys to them. */
export interface EditorShortcutActions {
  undo(): void;
  redo(): void;
  save(): void;
  saveAs(): void;
  deleteSelection(): void;
  duplicate(): void;
  copy(): void;
  cut(): void;
  selectAll(): void;
  deselect(): void;
  nudge(dx: number, dy: number): void;
  bringForward(): void;
  sendBackward(): void;
  toggleLock(): void;
  zoom(direction: 1 | -1): void;
  zoomFit(): void;
  togglePlay(): void;
  /** Text or files pasted while no text field has focus. */
  paste(data: DataTransfer): void;
}

/** Whether the key went to a text field, whose own editing keys must keep working. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset'].includes(type);
}

type Action = (actions: EditorShortcutActions, shift: boolean) => void;

/** Ctrl/Cmd + key. */
const WITH_MOD: Record<string, Action> = {
  z: (a, shift) => (shift ? a.redo() : a.undo()),
  y: (a) => a.redo(),
  d: (a) => a.duplicate(),
  c: (a) => a.copy(),
  x: (a) => a.cut(),
  a: (a) => a.selectAll(),
  ']': (a) => a.bringForward(),
  '[': (a) => a.sendBackward(),
  l: (a) => a.toggleLock(),
  '=': (a) => a.zoom(1),
  '+': (a) => a.zoom(1),
  '-': (a) => a.zoom(-1),
  '0': (a) => a.zoomFit(),
};

/** Plain keys (Shift makes nudges 10 px). */
const PLAIN: Record<string, Action> = {
  Delete: (a) => a.deleteSelection(),
  Backspace: (a) => a.deleteSelection(),
  ArrowLeft: (a, shift) => a.nudge(shift ? -10 : -1, 0),
  ArrowRight: (a, shift) => a.nudge(shift ? 10 : 1, 0),
  ArrowUp: (a, shift) => a.nudge(0, shift ? -10 : -1),
  ArrowDown: (a, shift) => a.nudge(0, shift ? 10 : 1),
  Escape: (a) => a.deselect(),
  ' ': (a) => a.togglePlay(),
};

/** Maps one key event to an action; returns true when it handled it. */
export function handleEditorKey(event: KeyboardEvent, actions: EditorShortcutActions): boolean {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (mod && key === 's') {
    if (event.shiftKey) actions.saveAs();
    else actions.save();
    return true;
  }
  if (isTyping(event.target) || event.altKey) return false;
  // Space on a focused button presses it; only take it when nothing interactive has focus.
  if (
    key === ' ' &&
    event.target instanceof HTMLElement &&
    event.target.closest('button, [role="button"], [role="slider"]')
  )
    return false;
  const action = (mod ? WITH_MOD : PLAIN)[key];
  if (!action) return false;
  action(actions, event.shiftKey);
  return true;
}

/**
 * Listens while the editor is on screen (the shell keeps workspaces alive, so listeners follow
 * activation rather than mounting).
 */
export function useEditorShortcuts(actions: EditorShortcutActions): void {
  const onKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented) return;
    if (handleEditorKey(event, actions)) event.preventDefault();
  };
  const onPaste = (event: ClipboardEvent): void => {
    if (isTyping(event.target) || !event.clipboardData) return;
    event.preventDefault();
    actions.paste(event.clipboardData);
  };
  let on = false;
  const start = (): void => {
    if (on) return;
    on = true;
    window.addEventListener('keydown', onKey);
    window.addEventListener('paste', onPaste);
  };
  const stop = (): void => {
    on = false;
    window.removeEventListener('keydown', onKey);
    window.removeEventListener('paste', onPaste);
  };
  onMounted(start);
  onActivated(start);
  onDeactivated(stop);
  onBeforeUnmount(stop);
}
