import type { Pinia } from 'pinia';
import { openingWorkspace } from '@/shell/use-workspace';
import { loadWorkspaceView } from '@/shell/workspace-views';
import { useConnectionsStore } from '@/stores/connections';
import { useEditorAssetsStore } from '@/stores/editor-assets';
import { useJobsStore } from '@/stores/jobs';
import { bridgeCatalogue } from './editor-catalogue';

/**
 * The longest the page holds its first render for the first screen's lists. The host answers them in
 * tens of milliseconds; a slower host gets the shell on time and the lists when they come.
 */
export const FIRST_SCREEN_WAIT_MS = 200;

/**
 * Starts what the first screen waits for before the shell has mounted: the opening workspace's chunk
 * and, for the editor, the catalogue its asset panel lists, the connections and the jobs. Resolves when
 * those have arrived (or after FIRST_SCREEN_WAIT_MS), so the app mounts once, with its workspace and
 * its lists: mounted first, the page was laid out and painted without the workspace, then again with
 * it, and the editor rendered again as each list arrived; those passes cost more than the wait.
 */
export function prepareFirstScreen(pinia: Pinia, wait: (ms: number) => Promise<void> = sleep): Promise<void> {
  const workspace = openingWorkspace();
  const needed: Promise<unknown>[] = [loadWorkspaceView(workspace)];
  if (workspace === 'editor') {
    const assets = useEditorAssetsStore(pinia);
    assets.useSource(bridgeCatalogue);
    needed.push(assets.load(), useConnectionsStore(pinia).ensureLoaded(), useJobsStore(pinia).ensureLoaded());
  }
  const ready = Promise.all(needed).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([ready, wait(FIRST_SCREEN_WAIT_MS)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
