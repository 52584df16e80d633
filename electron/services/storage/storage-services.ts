import type { S3Secret } from '../../common/bridge/storage';
import type { StoragesState } from '../../common/bridge/storage';
import type { CredentialVault, RecordStoreFactory } from '../host/types';
import { StorageManager } from './storage-manager';
import type { StoredS3Storage } from './storage-records';
import type { UploadRecords } from './upload-records';
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
  /** The uploader's record of links: the folder's records database (the host opens it). */
  uploads: UploadRecords;
  onChange?(state: StoragesState): void;
}

/** The storages and the one uploader that share their records; every host builds them the same way. */
export function createStorageServices(deps: StorageServicesDeps): StorageServices {
  const storages = new StorageManager(deps);
  const uploader = new Uploader({ records: deps.uploads, backend: (id) => storages.backend(id) });
  return { storages, uploader };
}
