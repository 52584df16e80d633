import type { connectionsCalls } from '../../common/bridge/connections';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';

export function createConnectionsDomain({
  connections,
  target,
  catalogue,
  callbacks,
}: StudioServices): DomainModule<typeof connectionsCalls> {
  /**
   * After a change that may move the callback receiver (its setting, the active connection, the client
   * secret): the change is kept, and a receiver that cannot listen is said in the call's answer.
   */
  const thenCallbacks = async <T>(changed: T): Promise<T> => {
    try {
      await callbacks?.reconcile();
    } catch (error) {
      throw new Error(`Saved. ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return changed;
  };
  return {
    dispose: async () => callbacks?.close(),
    handlers: {
      // The active connection is the one new work goes to: the folder's, unless the host chose another
      // for this run (a command line's --connection), which its clients then see as the active one.
      'connections.list': async () => ({ ...(await connections.state()), activeId: (await target.active()).id }),
      'connections.add': async (input) => thenCallbacks(await connections.add(input)),
      'connections.update': async (id, patch) => {
        catalogue.clear();
        return thenCallbacks(await connections.update(id, patch));
      },
      'connections.remove': async (id) => thenCallbacks(await connections.remove(id)),
      'connections.setActive': async (id) => thenCallbacks(await connections.setActive(id)),
      'connections.setSecret': async (id, secret) => {
        catalogue.clear();
        return thenCallbacks(await connections.setSecret(id, secret));
      },
      'connections.clearSecret': async (id) => thenCallbacks(await connections.clearSecret(id)),
      'connections.test': async (id) => connections.test(id),
      'connections.acceptWeakStorage': async () => connections.acceptWeakStorage(),
      'connections.balance': async () => connections.balance(),
      'connections.topUpSandbox': async (credits) => connections.topUpSandbox(credits),
    },
  };
}
