import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { menuTemplate } from '../../../electron/main/menu';
import { restoreBounds } from '../../../electron/main/window-state';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

describe('application menu', () => {
  const navigate = vi.fn();
  const actions = {
    isMac: false,
    appName: 'Avatar Studio',
    devTools: false,
    navigate,
    openDataFolder: vi.fn(),
    openLogFolder: vi.fn(),
  };

  it('has the usual edit and view roles', () => {
    const roles = flatten(menuTemplate(actions))
      .map((i) => i.role)
      .filter(Boolean);
    for (const role of [
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectAll',
      'reload',
      'zoomIn',
      'zoomOut',
      'resetZoom',
      'togglefullscreen',
      'quit',
    ]) {
      expect(roles, role).toContain(role);
    }
    expect(roles).not.toContain('toggleDevTools');
    expect(flatten(menuTemplate({ ...actions, isMac: true })).map((i) => i.role)).toContain('hide');
  });

  it('lists the workspaces with Ctrl/Cmd+1..6 and navigates on click', () => {
    const items = flatten(menuTemplate(actions)).filter((i) => i.accelerator?.startsWith('CmdOrCtrl+'));
    expect(items.map((i) => [i.label, i.accelerator])).toEqual([
      ['Editor', 'CmdOrCtrl+1'],
      ['Voices', 'CmdOrCtrl+2'],
      ['Library', 'CmdOrCtrl+3'],
      ['Tools', 'CmdOrCtrl+4'],
      ['Settings', 'CmdOrCtrl+5'],
      ['Campaigns', 'CmdOrCtrl+6'],
    ]);
    (items[2].click as () => void)();
    expect(navigate).toHaveBeenCalledWith('library');
  });
});

describe('remembered window bounds', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

  it('reopens where it was when that is still on a screen', () => {
    expect(restoreBounds({ x: 100, y: 80, width: 1200, height: 800, maximized: false }, screen)).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
  });

  it('drops a position on a screen that is gone, and shrinks to fit', () => {
    expect(restoreBounds({ x: 2500, y: 100, width: 1200, height: 800, maximized: false }, screen)).toEqual({
      width: 1200,
      height: 800,
    });
    expect(restoreBounds({ width: 3000, height: 2000, maximized: false }, screen)).toEqual({
      width: 1920,
      height: 1080,
    });
  });
});
