import type { AppSettings } from '../common/bridge';
import type { CatalogueService } from '../services/catalogue/catalogue-service';
import type { ConnectionManager } from '../services/connections/connection-manager';
import type { Logger, RecordStore, RecordStoreFactory } from '../services/host/types';
import type { EngineConnections, JobEngine } from '../services/jobs/engine';
import type { StorageServices } from '../services/storage/storage-services';

/** What a command-line run composed for a command (openCliHost builds it). */
export interface CliHost {
  dataDir: string;
  engine: JobEngine;
  connections: ConnectionManager;
  /** The connection new work goes to (--base-url, --connection, else the sandbox) and its client. */
  target: EngineConnections;
  /** Storages for local files (the sandbox, or one declared by STUDIO_S3_*) and the uploader. */
  storage: StorageServices;
  /** Avatar, voice and model lists through the connection the command works with. */
  catalogue: CatalogueService;
  /** Record stores in the data folder (the same records the app keeps). */
  createStore: RecordStoreFactory;
  /** The folder's settings, the record the Settings page writes (media binaries, spending). */
  settings: RecordStore<AppSettings>;
  log: Logger;
  /** Starts (or reaches) the built-in sandbox when any of `links` is one of its links, before they are fetched. */
  sandboxServing(links: readonly (string | undefined)[]): Promise<void>;
  close(): Promise<void>;
}
