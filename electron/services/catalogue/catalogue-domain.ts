import type { catalogueCalls } from '../../common/bridge/catalogue';
import type { DomainModule, HostBase } from '../host/types';
import { studioServices } from '../jobs/studio-services';

export function createCatalogueDomain(base: HostBase): DomainModule<typeof catalogueCalls> {
  const { catalogue } = studioServices(base);
  return {
    handlers: {
      'catalogue.avatars': async (query) => catalogue.avatars(query),
      'catalogue.voices': async (query) => catalogue.voices(query),
      'catalogue.models': async (types) => catalogue.models(types),
    },
  };
}
