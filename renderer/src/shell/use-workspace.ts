import { ref, watch, type Ref } from 'vue';
import { useEventListener } from '@vueuse/core';
import type { Workspace } from '@common/bridge';
import { isWorkspace, workspaces } from './workspaces';

function fromHash(hash: string): Workspace | null {
  const name = hash.replace(/^#\/?/, '');
  return isWorkspace(name) ? name : null;
}

/** The workspace the page opens on: the one in the address, else the default. */
export function openingWorkspace(fallback: Workspace = 'editor'): Workspace {
  return fromHash(window.location.hash) ?? fallback;
}

/**
 * The current workspace, kept in the address hash (#/voices) so a reload stays put and the browser's
 * back button works in the web host. Ctrl/Cmd+1..5 and Alt+1..5 switch (browsers keep Ctrl+digit for
 * their tabs, so Alt is the one that always works there).
 */
export function useWorkspace(initial: Workspace = 'editor'): Ref<Workspace> {
  const current = ref<Workspace>(openingWorkspace(initial));

  watch(current, (next) => {
    if (fromHash(window.location.hash) !== next) window.location.hash = `/${next}`;
  });
  useEventListener(window, 'hashchange', () => {
    const next = fromHash(window.location.hash);
    if (next) current.value = next;
  });
  useEventListener(window, 'keydown', (event: KeyboardEvent) => {
    const modifier = event.ctrlKey || event.metaKey || event.altKey;
    const exclusive = !(event.ctrlKey && event.altKey) && !event.shiftKey;
    if (!modifier || !exclusive) return;
    const target = workspaces.find((w) => w.key === event.key || `Digit${w.key}` === event.code);
    if (!target) return;
    event.preventDefault();
    current.value = target.id;
  });
  return current;
}
