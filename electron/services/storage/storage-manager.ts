import { randomUUID } from 'node:crypto';
import {
  ENV_STORAGE_ID,
  S3Secret,
  SANDBOX_STORAGE_ID,
  type NewS3Storage,
  type StoragesState,
  type StorageTest,
  type StorageView,
} from '../../common/bridge/storage';
import type { CredentialVault, RecordStore, RecordStoreFactory } from '../host/types';
import type { StorageBackend } from './backend';
import { S3Backend } from './s3-backend';
import { SandboxBackend } from './sandbox-backend';
import type { LightFetch } from '../net/light-fetch';
import { storageSecretId, storagesSpec, type StoragesRecord, type StoredS3Storage } from './storage-records';

export interface StorageManagerDeps {
  createStore: RecordStoreFactory;
  vault: CredentialVault;
  sandbox(): Promise<{ baseUrl: string; apiKey: string }>;
  /** A storage the environment declares (web host and CLI). */
  fromEnv?: { storage: StoredS3Storage; secret: S3Secret };
  fetch?: typeof globalThis.fetch;
  /** The sandbox storage's HTTP client (tests count or drop its requests). */
  sandboxFetch?: LightFetch;
  now?: () => number;
  onChange?(state: StoragesState): void;
}

/** What makes a stored key belong to a storage: change any of it and the key is dropped. */
const originOf = (s: Pick<StoredS3Storage, 'endpoint' | 'region' | 'bucket'>) =>
  `${s.endpoint ?? 'aws'}|${s.region}|${s.bucket}`;

/**
 * The built-in sandbox storage plus any number of S3-compatible ones. Access keys live in the vault
 * under `storage:<id>` and never leave the host; the active storage receives new uploads.
 */
export class StorageManager {
  private readonly store: RecordStore<StoragesRecord>;
  private readonly backends = new Map<string, StorageBackend>();

  constructor(private readonly deps: StorageManagerDeps) {
    this.store = deps.createStore(storagesSpec);
  }

  async state(): Promise<StoragesState> {
    const record = this.store.get();
    const activeId = this.exists(record.activeId) ? record.activeId : SANDBOX_STORAGE_ID;
    const views: StorageView[] = [
      {
        id: SANDBOX_STORAGE_ID,
        name: 'Sandbox',
        kind: 'sandbox',
        builtIn: true,
        endpoint: null,
        region: '',
        bucket: '',
        prefix: '',
        pathStyle: false,
        publicBaseUrl: null,
        hasSecret: true,
        active: activeId === SANDBOX_STORAGE_ID,
      },
    ];
    const env = this.deps.fromEnv?.storage;
    if (env) views.push({ ...env, kind: 's3', builtIn: true, hasSecret: true, active: activeId === env.id });
    for (const s of record.storages) {
      views.push({
        ...s,
        kind: 's3',
        builtIn: false,
        hasSecret: await this.deps.vault.has(storageSecretId(s.id)),
        active: activeId === s.id,
      });
    }
    return { storages: views, activeId };
  }

  async view(id: string): Promise<StorageView> {
    const found = (await this.state()).storages.find((s) => s.id === id);
    if (!found) throw new Error(`No storage with id "${id}"`);
    return found;
  }

  activeId(): string {
    const id = this.store.get().activeId;
    return this.exists(id) ? id : SANDBOX_STORAGE_ID;
  }

  /** The id of a storage named by the user (CLI), case-insensitively; its id works too. */
  resolve(nameOrId: string): string {
    const wanted = nameOrId.trim().toLowerCase();
    if (wanted === 'sandbox') return SANDBOX_STORAGE_ID;
    if (this.deps.fromEnv && (wanted === ENV_STORAGE_ID || wanted === this.deps.fromEnv.storage.name.toLowerCase()))
      return ENV_STORAGE_ID;
    const found = this.store.get().storages.find((s) => s.id === nameOrId || s.name.toLowerCase() === wanted);
    if (!found) throw new Error(`No storage named "${nameOrId}" (see Settings → Storage)`);
    return found.id;
  }

  async add(input: NewS3Storage): Promise<StorageView> {
    const taken = (await this.state()).storages.some((s) => s.name.toLowerCase() === input.name.toLowerCase());
    if (taken) throw new Error(`A storage named "${input.name}" already exists`);
    const id = randomUUID();
    this.store.update((r) => ({ ...r, storages: [...r.storages, { ...input, id }] }));
    await this.changed();
    return this.view(id);
  }

  async update(id: string, patch: Partial<NewS3Storage>): Promise<StorageView> {
    const current = this.editable(id);
    const next = { ...current, ...patch };
    if (originOf(next) !== originOf(current)) {
      // A key belongs to the bucket it was entered for; a moved storage asks for it again.
      await this.deps.vault.delete(storageSecretId(id));
    }
    this.store.update((r) => ({ ...r, storages: r.storages.map((s) => (s.id === id ? next : s)) }));
    this.drop(id);
    await this.changed();
    return this.view(id);
  }

  async remove(id: string): Promise<StoragesState> {
    this.editable(id);
    await this.deps.vault.delete(storageSecretId(id));
    this.store.update((r) => ({
      activeId: r.activeId === id ? SANDBOX_STORAGE_ID : r.activeId,
      storages: r.storages.filter((s) => s.id !== id),
    }));
    this.drop(id);
    return this.changed();
  }

  async setActive(id: string): Promise<StoragesState> {
    if (!this.exists(id)) throw new Error(`No storage with id "${id}"`);
    this.store.update((r) => ({ ...r, activeId: id }));
    return this.changed();
  }

  async setSecret(id: string, secret: S3Secret): Promise<StorageView> {
    this.editable(id);
    await this.deps.vault.set(storageSecretId(id), JSON.stringify(S3Secret.parse(secret)));
    this.drop(id);
    await this.changed();
    return this.view(id);
  }

  async clearSecret(id: string): Promise<StorageView> {
    this.editable(id);
    await this.deps.vault.delete(storageSecretId(id));
    this.drop(id);
    await this.changed();
    return this.view(id);
  }

  async test(id: string): Promise<StorageTest> {
    const started = (this.deps.now ?? Date.now)();
    try {
      const message = await (await this.backend(id)).test();
      return { ok: true, message, latencyMs: (this.deps.now ?? Date.now)() - started };
    } catch (error) {
      return { ok: false, message: `The storage test failed: ${(error as Error).message}`, latencyMs: null };
    }
  }

  /** The backend of a storage, built once per configuration. */
  async backend(id: string): Promise<StorageBackend> {
    const cached = this.backends.get(id);
    if (cached) return cached;
    const built = await this.build(id);
    this.backends.set(id, built);
    return built;
  }

  private async build(id: string): Promise<StorageBackend> {
    if (id === SANDBOX_STORAGE_ID) return new SandboxBackend(this.deps.sandbox, this.deps.sandboxFetch);
    if (id === ENV_STORAGE_ID && this.deps.fromEnv)
      return new S3Backend(this.deps.fromEnv.storage, this.deps.fromEnv.secret, this.deps);
    const config = this.editable(id);
    const stored = await this.deps.vault.get(storageSecretId(id));
    const secret = stored ? S3Secret.safeParse(JSON.parse(stored)) : null;
    if (!secret?.success)
      throw new Error(`The storage "${config.name}" has no access key yet: enter it in Settings → Storage`);
    return new S3Backend(config, secret.data, this.deps);
  }

  private exists(id: string): boolean {
    return (
      id === SANDBOX_STORAGE_ID ||
      (id === ENV_STORAGE_ID && !!this.deps.fromEnv) ||
      this.store.get().storages.some((s) => s.id === id)
    );
  }

  private editable(id: string): StoredS3Storage {
    if (id === SANDBOX_STORAGE_ID) throw new Error('The sandbox storage is built in and cannot be changed.');
    if (id === ENV_STORAGE_ID)
      throw new Error('This storage comes from the STUDIO_S3_* environment variables; change them instead.');
    const found = this.store.get().storages.find((s) => s.id === id);
    if (!found) throw new Error(`No storage with id "${id}"`);
    return found;
  }

  private drop(id: string): void {
    const backend = this.backends.get(id);
    if (backend instanceof S3Backend) backend.dispose();
    this.backends.delete(id);
  }

  private async changed(): Promise<StoragesState> {
    const state = await this.state();
    this.deps.onChange?.(state);
    return state;
  }
}
