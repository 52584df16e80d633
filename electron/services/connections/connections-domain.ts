import type { connectionsCalls } from '../../common/bridge/connections';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../jobs/studio-services';

export function createConnectionsDomain({
  connections,
  catalogue,
}: StudioServices): DomainModule<typeof connectionsCalls> {
  return {
    handlers: {
      'connections.list': async () => connections.state(),
      'connections.add': async (input) => connections.add(input),
      'connections.update': async (id, patch) => {
        catalogue.clear();
        return connections.update(id, patch);
      },
      'connections.remove': async (id) => connections.remove(id),
      'connections.setActive': async (id) => connections.setActive(id),
      'connections.setSecret': async (id, secret) => {
        catalogue.clear();
        return connections.setSecret(id, secret);
      },
      'connections.clearSecret': async (id) => connections.clearSecret(id),
      'connections.test': async (id) => connections.test(id),
      'connections.acceptWeakStorage': async () => connections.acceptWeakStorage(),
      'connections.balance': async () => connections.balance(),
    },
  };
}
