import { onScopeDispose } from 'vue';
import type { MessageApi, MessageReactive } from 'naive-ui';
import { call, onEvent } from '@/bridge';

/**
 * The Library's "Burn captions": asks the host to burn the project's captions into a copy of a saved
 * result and says how it goes in one message that follows the host's captions.burning events.
 */
export function burnCaptionsFor(message: MessageApi): (downloadId: string) => Promise<void> {
  const shown = new Map<string, MessageReactive>();
  const off = onEvent('captions.burning', (event) => {
    const note = shown.get(event.burnId);
    if (!note) return;
    if (event.state === 'running') {
      note.content = `Burning captions into a copy… ${Math.floor(event.fraction * 100)}%`;
      return;
    }
    note.destroy();
    shown.delete(event.burnId);
    if (event.state === 'done')
      message.success(`Captions burned into a copy: ${event.path ?? ''}`, { duration: 8000, closable: true });
    else
      message.error(`Captions could not be burned in: ${event.message ?? 'unknown reason'}`, {
        duration: 0,
        closable: true,
      });
  });
  // Called in a component's setup: the listener goes with the component.
  onScopeDispose(off);
  return async (downloadId) => {
    try {
      const { burnId } = await call('captions.burn', { downloadId });
      shown.set(burnId, message.loading('Burning captions into a copy… 0%', { duration: 0 }));
    } catch (error) {
      message.error(`Captions could not be burned in: ${(error as Error).message}`, { duration: 0, closable: true });
    }
  };
}
