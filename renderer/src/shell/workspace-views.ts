import type { Component } from 'vue';
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
};
