import type { catalogueCalls } from '../../common/bridge/catalogue';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';

export function createCatalogueDomain({ catalogue }: StudioServices): DomainModule<typeof catalogueCalls> {
  return {
    handlers: {
      'catalogue.avatars': async (query) => catalogue.avatars(query),
      'catalogue.voices': async (query) => catalogue.voices(query),
      'catalogue.models': async (types) => catalogue.models(types),
      'catalogue.refresh': async () => catalogue.clear(),
    },
  };
}
