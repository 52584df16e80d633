import type { S3Secret } from '../../common/bridge/storage';
import type { StoragesState } from '../../common/bridge/storage';
import type { CredentialVault, RecordStoreFactory } from '../host/types';
import { StorageManager } from './storage-manager';
import type { StoredS3Storage } from './storage-records';
import { Uploader } from './uploader';

export interface StorageServices {
  storages: StorageManager;
  uploader: Uploader;
}

export interface StorageServicesDeps {
  createStore: RecordStoreFactory;
  vault: CredentialVault;
  sandbox(): Promise<{ baseUrl: string; apiKey: string }>;
  fromEnv?: { storage: StoredS3Storage; secret: S3Secret };
  onChange?(state: StoragesState): void;
}

/** The storages and the one uploader that share their records; every host builds them the same way. */
export function createStorageServices(deps: StorageServicesDeps): StorageServices {
  const storages = new StorageManager(deps);
  const uploader = new Uploader({ createStore: deps.createStore, backend: (id) => storages.backend(id) });
  return { storages, uploader };
}
