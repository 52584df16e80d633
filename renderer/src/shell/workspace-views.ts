import { defineAsyncComponent, type Component } from 'vue';
import type { Workspace } from '@common/bridge';

/**
 * Each workspace is its own chunk: the editor's canvas code loads only when the editor is opened. The
 * loaders are shared so the start-up can fetch the opening workspace while the shell is still mounting.
 */
export const workspaceViews: Record<Workspace, () => Promise<{ default: Component }>> = {
  editor: () => import('@/views/editor/EditorView.vue'),
  voices: () => import('@/views/voices/VoicesView.vue'),
  library: () => import('@/views/library/LibraryView.vue'),
  tools: () => import('@/views/tools/ToolsView.vue'),
  settings: () => import('@/views/settings/SettingsView.vue'),
  campaigns: () => import('@/views/campaigns/CampaignsView.vue'),
};

const arrived: Partial<Record<Workspace, Component>> = {};

/** Loads a workspace's chunk; its component is kept once it has arrived. */
export function loadWorkspaceView(id: Workspace): Promise<Component> {
  return workspaceViews[id]().then((module) => (arrived[id] = module.default));
}

/**
 * The component the shell shows for a workspace: itself when its chunk has already arrived, so it
 * mounts with the shell in one pass (an async wrapper renders it a task later, after the browser has
 * already laid out and painted the shell once without it); otherwise one that loads it.
 */
export function workspaceComponent(id: Workspace): Component {
  return arrived[id] ?? defineAsyncComponent(() => loadWorkspaceView(id));
}
