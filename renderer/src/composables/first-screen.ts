import type { Pinia } from 'pinia';
import { openingWorkspace } from '@/shell/use-workspace';
import { workspaceViews } from '@/shell/workspace-views';
import { useEditorAssetsStore } from '@/stores/editor-assets';
import { bridgeCatalogue } from './editor-catalogue';

/**
 * Starts what the first screen waits for before the shell has mounted: the opening workspace's chunk
 * and, for the editor, the catalogue its asset panel lists. Both then overlap with the shell's own
 * start instead of following it; the views find them under way (module cache, the store's shared load).
 */
export function prepareFirstScreen(pinia: Pinia): void {
  const workspace = openingWorkspace();
  void workspaceViews[workspace]().catch(() => undefined);
  if (workspace === 'editor') {
    const assets = useEditorAssetsStore(pinia);
    assets.useSource(bridgeCatalogue);
    void assets.load();
  }
}
