import { Workspace } from '../common/bridge';

/** The workspaces in sidebar order, with the names the sidebar shows (View menu items use them). */
export const workspaceLabels: readonly (readonly [Workspace, string])[] = Workspace.options.map(
  (id) => [id, id.charAt(0).toUpperCase() + id.slice(1)] as const,
);
