import type { AppSettings, settingsCalls } from '../../common/bridge';
import type { DomainModule, HostBase } from '../host/types';
import { appSettingsSpec } from './settings-store';

export function createSettingsDomain(base: HostBase): DomainModule<typeof settingsCalls> {
  const store = base.createStore(appSettingsSpec);
  return {
    handlers: {
      'settings.get': async () => store.get(),
      'settings.update': async (patch) => {
        const next = store.update((current): AppSettings => ({ ...current, ...patch }));
        base.log.info('settings changed', { fields: Object.keys(patch) });
        base.emit('settings.changed', next);
        return next;
      },
    },
  };
}
