import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ConnectionPatch, ConnectionTest, ConnectionsState, NewConnection, SecretInput } from '@common/bridge';
import { call, onEvent } from '@/bridge';
import { sharedFirstLoad } from './first-load';

/** The connections the host knows. Secrets go in through setSecret and never come back out. */
export const useConnectionsStore = defineStore('connections', () => {
  const state = ref<ConnectionsState | null>(null);
  const loadError = ref<string | null>(null);
  const tests = ref<Record<string, ConnectionTest & { at: number }>>({});
  const testing = ref<Record<string, boolean>>({});
  let stop: (() => void) | undefined;

  const connections = computed(() => state.value?.connections ?? []);
  const active = computed(() => connections.value.find((c) => c.active) ?? null);
  const storage = computed(() => state.value?.storage ?? null);

  async function load(): Promise<void> {
    stop ??= onEvent('connections.changed', (next) => (state.value = next));
    try {
      state.value = await call('connections.list');
      loadError.value = null;
    } catch (error) {
      loadError.value = error instanceof Error ? error.message : String(error);
    }
  }

  const ensureLoaded = sharedFirstLoad(load, () => loadError.value !== null);

  async function add(input: NewConnection, secret: SecretInput | null): Promise<string> {
    const created = await call('connections.add', input);
    if (secret) await call('connections.setSecret', created.id, secret);
    await load();
    return created.id;
  }

  async function update(id: string, patch: ConnectionPatch, secret: SecretInput | null): Promise<void> {
    await call('connections.update', id, patch);
    if (secret) await call('connections.setSecret', id, secret);
    delete tests.value[id];
    await load();
  }

  async function remove(id: string): Promise<void> {
    await call('connections.remove', id);
    await load();
  }

  async function setActive(id: string): Promise<void> {
    state.value = await call('connections.setActive', id);
  }

  async function clearSecret(id: string): Promise<void> {
    await call('connections.clearSecret', id);
    delete tests.value[id];
    await load();
  }

  async function test(id: string): Promise<ConnectionTest> {
    testing.value = { ...testing.value, [id]: true };
    try {
      const result = await call('connections.test', id);
      tests.value = { ...tests.value, [id]: { ...result, at: Date.now() } };
      return result;
    } finally {
      testing.value = { ...testing.value, [id]: false };
    }
  }

  async function acceptWeakStorage(): Promise<void> {
    await call('connections.acceptWeakStorage');
    await load();
  }

  return {
    state,
    loadError,
    connections,
    active,
    storage,
    tests,
    testing,
    load,
    ensureLoaded,
    add,
    update,
    remove,
    setActive,
    clearSecret,
    test,
    acceptWeakStorage,
  };
});
