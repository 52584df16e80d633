import type { MenuItemConstructorOptions } from 'electron';
import type { Workspace } from '../common/bridge';
import { workspaceLabels } from './workspace-labels';

export interface MenuActions {
  isMac: boolean;
  appName: string;
  /** Developer tools only in development builds. */
  devTools: boolean;
  navigate(workspace: Workspace): void;
  openDataFolder(): void;
  openLogFolder(): void;
}

/**
 * The application menu: the usual Edit/View/Window roles (so copy, paste, undo, zoom and full screen
 * work everywhere), workspaces under View with Ctrl/Cmd+1..5, and Help items to find the app's files.
 * The workspace accelerators are shown but handled by the page, which owns that shortcut.
 */
export function menuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const appMenu: MenuItemConstructorOptions[] = actions.isMac
    ? [
        {
          label: actions.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const workspaceItems: MenuItemConstructorOptions[] = workspaceLabels.map(([id, label], index) => ({
    label,
    accelerator: `CmdOrCtrl+${index + 1}`,
    registerAccelerator: false,
    click: () => actions.navigate(id),
  }));
  return [
    ...appMenu,
    { label: 'File', submenu: [actions.isMac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'delete' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...workspaceItems,
        { type: 'separator' },
        { role: 'reload' },
        ...(actions.devTools ? [{ role: 'toggleDevTools' } as MenuItemConstructorOptions] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Window',
      submenu: actions.isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      role: 'help',
      submenu: [
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        { label: 'Open Log Folder', click: () => actions.openLogFolder() },
      ],
    },
  ];
}
