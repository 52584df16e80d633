import { ref } from 'vue';
import type { BatchView } from '@common/bridge';
import { call } from '@/bridge';

/**
 * The batch open in the panel, without its rows (its table reads them a page at a time). Read again
 * at each of its changes: one read at a time, and the changes that come during one read once after it.
 */
export function useOpenBatch() {
  const open = ref<BatchView | null>(null);
  let reading: string | null = null;
  let again = false;

  async function show(id: string): Promise<void> {
    if (reading === id) return void (again = true);
    reading = id;
    try {
      do {
        again = false;
        const view = await call('batches.get', id);
        // Another batch opened meanwhile: this one's answer is not shown.
        if (reading === id) open.value = view;
      } while (again && reading === id);
    } finally {
      if (reading === id) reading = null;
    }
  }

  /** The batch's change as a call answered it, or news of it from the host (read again if it is open). */
  function changedElsewhere(id: string): void {
    if (open.value?.id === id) void show(id);
  }

  return { open, show, changedElsewhere };
}
