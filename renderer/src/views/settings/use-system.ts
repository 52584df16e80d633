import { onBeforeUnmount, ref } from 'vue';
import type { AppSettings, AppSettingsPatch, BinaryStatus, SystemInfo } from '@common/bridge';
import { call, onEvent } from '@/bridge';

/** Settings and system info for the Settings workspace, kept fresh by the settings.changed event. */
export function useSystemSettings() {
  const settings = ref<AppSettings | null>(null);
  const info = ref<SystemInfo | null>(null);
  const binaries = ref<BinaryStatus[] | null>(null);
  const loadError = ref<string | null>(null);
  const checking = ref(false);

  const refreshInfo = async (): Promise<void> => {
    checking.value = true;
    try {
      const [facts, found] = await Promise.all([call('system.info'), call('system.checkBinaries')]);
      info.value = facts;
      binaries.value = found;
    } catch (error) {
      loadError.value = error instanceof Error ? error.message : String(error);
    } finally {
      checking.value = false;
    }
  };

  const load = async (): Promise<void> => {
    loadError.value = null;
    try {
      settings.value = await call('settings.get');
    } catch (error) {
      loadError.value = error instanceof Error ? error.message : String(error);
    }
    await refreshInfo();
  };

  const update = async (patch: AppSettingsPatch): Promise<AppSettings> => {
    const next = await call('settings.update', patch);
    settings.value = next;
    return next;
  };

  const stop = onEvent('settings.changed', (next) => {
    settings.value = next;
  });
  onBeforeUnmount(stop);

  return { settings, info, binaries, loadError, checking, load, refreshInfo, update };
}
