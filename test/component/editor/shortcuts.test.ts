import { describe, expect, it, vi } from 'vitest';
import { handleEditorKey, type EditorShortcutActions } from '@/composables/editor-shortcuts';

function actions(): EditorShortcutActions {
  const names = [
    'undo',
    'redo',
    'save',
    'saveAs',
    'deleteSelection',
    'duplicate',
    'copy',
    'cut',
    'selectAll',
    'deselect',
    'nudge',
    'bringForward',
    'sendBackward',
    'toggleLock',
    'zoom',
    'zoomFit',
    'togglePlay',
    'paste',
  ];
  return Object.fromEntries(names.map((n) => [n, vi.fn()])) as unknown as EditorShortcutActions;
}

function key(k: string, init: KeyboardEventInit = {}, target: EventTarget = document.body): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: k, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
}

describe('editor shortcuts', () => {
  it('maps undo, both redo forms, save and save as', () => {
    const a = actions();
    handleEditorKey(key('z', { ctrlKey: true }), a);
    handleEditorKey(key('Z', { ctrlKey: true, shiftKey: true }), a);
    handleEditorKey(key('y', { ctrlKey: true }), a);
    handleEditorKey(key('s', { metaKey: true }), a);
    handleEditorKey(key('S', { ctrlKey: true, shiftKey: true }), a);
    expect(a.undo).toHaveBeenCalledTimes(1);
    expect(a.redo).toHaveBeenCalledTimes(2);
    expect(a.save).toHaveBeenCalledTimes(1);
    expect(a.saveAs).toHaveBeenCalledTimes(1);
  });

  it('nudges 1 px, or 10 px with Shift', () => {
    const a = actions();
    handleEditorKey(key('ArrowLeft'), a);
    handleEditorKey(key('ArrowDown', { shiftKey: true }), a);
    expect(a.nudge).toHaveBeenNthCalledWith(1, -1, 0);
    expect(a.nudge).toHaveBeenNthCalledWith(2, 0, 10);
  });

  it('deletes, duplicates and zooms', () => {
    const a = actions();
    expect(handleEditorKey(key('Delete'), a)).toBe(true);
    handleEditorKey(key('d', { ctrlKey: true }), a);
    handleEditorKey(key('=', { ctrlKey: true }), a);
    handleEditorKey(key('-', { ctrlKey: true }), a);
    handleEditorKey(key('0', { ctrlKey: true }), a);
    expect(a.deleteSelection).toHaveBeenCalled();
    expect(a.duplicate).toHaveBeenCalled();
    expect(a.zoom).toHaveBeenNthCalledWith(1, 1);
    expect(a.zoom).toHaveBeenNthCalledWith(2, -1);
    expect(a.zoomFit).toHaveBeenCalled();
  });

  it('leaves text fields their own keys, except save', () => {
    const a = actions();
    const input = document.createElement('input');
    expect(handleEditorKey(key('Backspace', {}, input), a)).toBe(false);
    expect(handleEditorKey(key('z', { ctrlKey: true }, input), a)).toBe(false);
    expect(handleEditorKey(key('s', { ctrlKey: true }, input), a)).toBe(true);
    expect(a.deleteSelection).not.toHaveBeenCalled();
    expect(a.undo).not.toHaveBeenCalled();
    expect(a.save).toHaveBeenCalled();
  });
});
