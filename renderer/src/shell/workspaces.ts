import type { Workspace } from '@common/bridge';

export interface WorkspaceEntry {
  id: Workspace;
  label: string;
  /** One line under the label in tooltips and page headers. */
  blurb: string;
  /** Digit of the Ctrl/Cmd shortcut. */
  key: string;
  icon: string;
}

/** Sidebar order is shortcut order: Ctrl+1 is the first entry. Icons are 24x24 stroke paths. */
export const workspaces: readonly WorkspaceEntry[] = [
  {
    id: 'editor',
    label: 'Editor',
    blurb: 'Compose avatar videos scene by scene',
    key: '1',
    icon: 'M4 5h16v11H4z M9 20h6 M12 16v4 M8 9l3 2-3 2z',
  },
  {
    id: 'voices',
    label: 'Voices',
    blurb: 'Browse voices, speak text, clone a voice',
    key: '2',
    icon: 'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3z M5 11a7 7 0 0 0 14 0 M12 18v3',
  },
  {
    id: 'library',
    label: 'Library',
    blurb: 'Your jobs, results and downloads',
    key: '3',
    icon: 'M4 4h6v16H4z M14 4l6 1.5-3.5 15L11 19',
  },
  {
    id: 'tools',
    label: 'Tools',
    blurb: 'Lip sync, face detection, character swap',
    key: '4',
    icon: 'M14.5 5.5a4 4 0 0 0-5 5L4 16l4 4 5.5-5.5a4 4 0 0 0 5-5l-2.5 2.5-3-1-1-3z',
  },
  {
    id: 'settings',
    label: 'Settings',
    blurb: 'Connections, media tools and preferences',
    key: '5',
    icon: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M19 12l2-1-1-3-2 .2-1.2-1.5.6-2-3-1.4-1.2 1.7h-2L8.9 2.3 5.9 3.7l.6 2L5.3 7.2 3.3 7 2.3 10l1.8 1v2l-1.8 1 1 3 2-.2 1.2 1.5-.6 2 3 1.4 1.2-1.7h2l1.2 1.7 3-1.4-.6-2 1.2-1.5 2 .2 1-3-2-1z',
  },
  {
    id: 'campaigns',
    label: 'Campaigns',
    blurb: 'One template and a spreadsheet, one video per row',
    key: '6',
    icon: 'M3 5h18v14H3z M3 10h18 M9 10v9 M15 10v9',
  },
];

export function isWorkspace(value: string): value is Workspace {
  return workspaces.some((w) => w.id === value);
}
