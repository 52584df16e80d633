import type { storageCalls } from '../../common/bridge/storage';
import type { DomainModule, HostBase } from '../host/types';
import { storageFromEnv } from './storage-records';
import type { UploadRecords } from './upload-records';
import { createStorageServices, type StorageServices } from './storage-services';

/**
 * The storage services of a host: the desktop keeps keys in its vault, the Node hosts may also read
 * STUDIO_S3_*. The links uploaded are recorded in `uploads`, which the host opened with its other records.
 */
export function createHostStorage(
  base: Pick<HostBase, 'host' | 'log' | 'createStore' | 'vault' | 'sandbox' | 'emit'>,
  uploads: UploadRecords,
  env: Record<string, string | undefined> = process.env,
): StorageServices {
  const declared = base.host === 'electron' ? undefined : storageFromEnv(env);
  if (typeof declared === 'string') base.log.warn(declared);
  return createStorageServices({
    createStore: base.createStore,
    vault: base.vault,
    sandbox: () => base.sandbox(),
    fromEnv: typeof declared === 'object' ? declared : undefined,
    uploads,
    onChange: (state) => base.emit('storage.changed', state),
  });
}

export function createStorageDomain({
  storages,
}: Pick<StorageServices, 'storages'>): DomainModule<typeof storageCalls> {
  return {
    handlers: {
      'storage.list': async () => storages.state(),
      'storage.add': async (input) => storages.add(input),
      'storage.update': async (id, patch) => storages.update(id, patch),
      'storage.remove': async (id) => storages.remove(id),
      'storage.setActive': async (id) => storages.setActive(id),
      'storage.setSecret': async (id, secret) => storages.setSecret(id, secret),
      'storage.clearSecret': async (id) => storages.clearSecret(id),
      'storage.test': async (id) => storages.test(id),
    },
  };
}
