import { z } from 'zod';
import type { CredentialVault, RecordStore, RecordStoreFactory, RecordStoreSpec } from '../host/types';

export const weakSecretsSpec: RecordStoreSpec<Record<string, string>> = {
  name: 'weak-secrets',
  schema: z.record(z.string(), z.string()),
  defaults: {},
  version: 1,
};

/**
 * The storage a user may explicitly accept when the OS offers no real encryption: secrets are kept
 * reversibly encoded (not encrypted) so they survive restarts. Only used after consent.
 */
export class WeakFileVault implements CredentialVault {
  readonly protection = 'weak' as const;
  readonly persistent = true;
  private readonly store: RecordStore<Record<string, string>>;

  constructor(createStore: RecordStoreFactory | RecordStore<Record<string, string>>) {
    this.store = typeof createStore === 'function' ? createStore(weakSecretsSpec) : createStore;
  }

  async set(id: string, secret: string): Promise<void> {
    this.store.update((all) => ({ ...all, [id]: encodeWeak(secret) }));
  }
  async get(id: string): Promise<string | undefined> {
    const value = this.store.get()[id];
    return value === undefined ? undefined : decodeWeak(value);
  }
  async has(id: string): Promise<boolean> {
    return Object.hasOwn(this.store.get(), id);
  }
  async delete(id: string): Promise<void> {
    this.store.update((all) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== id)));
  }
}

/** Reversible on purpose: this is obfuscation so a secret does not show up in a grep, not protection. */
export function encodeWeak(secret: string): string {
  const bytes = new TextEncoder().encode(secret).map((b, i) => b ^ (0x5a + i) % 256);
  return `weak1:${Buffer.from(bytes).toString('base64')}`;
}

export function decodeWeak(stored: string): string {
  const raw = Buffer.from(stored.replace(/^weak1:/, ''), 'base64');
  return new TextDecoder().decode(raw.map((b, i) => b ^ (0x5a + i) % 256));
}
