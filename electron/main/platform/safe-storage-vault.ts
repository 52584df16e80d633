import { safeStorage as electronSafeStorage } from 'electron';
import { z } from 'zod';
import type { CredentialVault, RecordStore, RecordStoreFactory, RecordStoreSpec } from '../../services/host/types';
import {
  WEAK_STORAGE_CONSENT_ID,
  WEAK_STORAGE_OFFER_ID,
  type VaultStorageInfo,
  type WeakStorageConsent,
} from '../../services/connections/vault-consent';
import { decodeWeak, encodeWeak } from '../../services/connections/weak-vault';

/** The part of Electron's safeStorage this vault uses (tests pass a fake through vi.mock('electron')). */
export type SafeStorageLike = Pick<
  typeof electronSafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString'
> & {
  getSelectedStorageBackend?: () => string;
};

export interface VaultRecord {
  /** id -> "os1:<base64 ciphertext>" or, after consent, "weak1:<encoded>". */
  secrets: Record<string, string>;
  weakAccepted: boolean;
}

export const vaultSpec: RecordStoreSpec<VaultRecord> = {
  name: 'credentials',
  schema: z.object({ secrets: z.record(z.string(), z.string()), weakAccepted: z.boolean() }),
  defaults: { secrets: {}, weakAccepted: false },
  version: 1,
};

export interface SafeStorageVaultOptions {
  createStore: RecordStoreFactory;
  platform?: NodeJS.Platform;
  safeStorage?: SafeStorageLike;
}

/**
 * Secrets encrypted by the OS (Keychain, DPAPI, libsecret/kwallet) with only ciphertext in the store.
 * When the OS offers nothing real (Linux basic_text, or no encryption at all) secrets live in memory for
 * this run unless the user explicitly accepts weaker storage.
 */
export class SafeStorageVault implements CredentialVault, WeakStorageConsent {
  private readonly store: RecordStore<VaultRecord>;
  private readonly safe: SafeStorageLike;
  private readonly platform: NodeJS.Platform;
  private readonly runOnly = new Map<string, string>();

  constructor(options: SafeStorageVaultOptions) {
    this.store = options.createStore(vaultSpec);
    this.safe = options.safeStorage ?? electronSafeStorage;
    this.platform = options.platform ?? process.platform;
  }

  private backend(): string | undefined {
    return this.platform === 'linux' ? this.safe.getSelectedStorageBackend?.() : undefined;
  }

  private strong(): boolean {
    return this.safe.isEncryptionAvailable() && this.backend() !== 'basic_text';
  }

  private mode(): 'os' | 'weak' | 'memory' {
    if (this.strong()) return 'os';
    return this.store.get().weakAccepted ? 'weak' : 'memory';
  }

  get protection(): CredentialVault['protection'] {
    const mode = this.mode();
    return mode === 'os' ? 'os-encryption' : mode;
  }

  get persistent(): boolean {
    return this.mode() !== 'memory';
  }

  storageInfo(): VaultStorageInfo {
    const mode = this.mode();
    const why = this.safe.isEncryptionAvailable()
      ? 'No system keyring is available (the "basic_text" backend), so the OS cannot really encrypt secrets.'
      : 'The operating system offers no encryption for secrets here.';
    const notice =
      mode === 'os'
        ? null
        : mode === 'weak'
          ? `${why} You chose to store secrets anyway: they are saved with weak protection and anyone who can read your files can recover them.`
          : `${why} Secrets are kept for this run only and must be entered again after a restart, unless you accept weaker storage.`;
    return {
      protection: this.protection,
      persistent: this.persistent,
      notice,
      canAcceptWeakStorage: mode === 'memory',
      weakStorageAccepted: this.store.get().weakAccepted,
    };
  }

  async acceptWeakStorage(): Promise<void> {
    if (this.strong()) return;
    this.store.update((record) => ({ ...record, weakAccepted: true }));
    for (const [id, secret] of this.runOnly) await this.set(id, secret);
    this.runOnly.clear();
  }

  async set(id: string, secret: string): Promise<void> {
    if (id === WEAK_STORAGE_CONSENT_ID) return this.acceptWeakStorage();
    const mode = this.mode();
    if (mode === 'memory') {
      this.runOnly.set(id, secret);
      return;
    }
    const stored =
      mode === 'os' ? `os1:${this.safe.encryptString(secret).toString('base64')}` : this.weakEncode(secret);
    this.store.update((record) => ({ ...record, secrets: { ...record.secrets, [id]: stored } }));
  }

  async get(id: string): Promise<string | undefined> {
    const run = this.runOnly.get(id);
    if (run !== undefined) return run;
    const stored = this.store.get().secrets[id];
    if (stored === undefined) return undefined;
    try {
      if (stored.startsWith('os1:')) return this.safe.decryptString(Buffer.from(stored.slice(4), 'base64'));
      if (stored.startsWith('weakos1:')) return this.safe.decryptString(Buffer.from(stored.slice(8), 'base64'));
      if (stored.startsWith('weak1:')) return decodeWeak(stored);
    } catch {
      // Encrypted under another user or keyring: unreadable, so treat it as absent.
      return undefined;
    }
    return undefined;
  }

  async has(id: string): Promise<boolean> {
    if (id === WEAK_STORAGE_OFFER_ID) return this.mode() === 'memory';
    if (id === WEAK_STORAGE_CONSENT_ID) return this.store.get().weakAccepted;
    return this.runOnly.has(id) || Object.hasOwn(this.store.get().secrets, id);
  }

  async delete(id: string): Promise<void> {
    this.runOnly.delete(id);
    this.store.update((record) => ({
      ...record,
      secrets: Object.fromEntries(Object.entries(record.secrets).filter(([key]) => key !== id)),
    }));
  }

  /** basic_text still obfuscates with a fixed key; without any encryption fall back to our own encoding. */
  private weakEncode(secret: string): string {
    return this.safe.isEncryptionAvailable()
      ? `weakos1:${this.safe.encryptString(secret).toString('base64')}`
      : encodeWeak(secret);
  }
}
