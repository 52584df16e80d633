import type { connectionsCalls } from '../../common/bridge/connections';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';

export function createConnectionsDomain({
  connections,
  target,
  catalogue,
}: StudioServices): DomainModule<typeof connectionsCalls> {
  return {
    handlers: {
      // The active connection is the one new work goes to: the folder's, unless the host chose another
      // for this run (a command line's --connection), which its clients then see as the active one.
      'connections.list': async () => ({ ...(await connections.state()), activeId: (await target.active()).id }),
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
      'connections.topUpSandbox': async (credits) => connections.topUpSandbox(credits),
    },
  };
}
