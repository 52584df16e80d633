import { describe, expect, it, vi } from 'vitest';
import { EnvVault, credentialsFromEnv } from '../../../electron/services/connections/env-vault';
import { decodeWeak, encodeWeak } from '../../../electron/services/connections/weak-vault';
import { decodeCredentials, encodeCredentials, secretId } from '../../../electron/services/connections/credentials';
import { acceptWeakStorage, describeVault } from '../../../electron/services/connections/vault-consent';
import type { CredentialVault } from '../../../electron/services/host/types';
import { createMemoryStoreFactory, MemoryRecordFiles } from '../../../electron/services/store/memory-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';

vi.mock('electron', () => ({ safeStorage: {} }));
const { SafeStorageVault } = await import('../../../electron/main/platform/safe-storage-vault');

function stores() {
  const files = new MemoryRecordFiles();
  return { files, createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined }, files) };
}

/** A stand-in for Electron's safeStorage: reversible, but visibly not the clear text. */
function fakeSafeStorage(backend: string, available = true) {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (s: string) => Buffer.from(`enc:${[...s].reverse().join('')}`),
    decryptString: (b: Buffer) => [...b.toString().slice(4)].reverse().join(''),
  };
}

const SECRET = 'sk-live-9f8e7d6c5b4a';

describe('SafeStorageVault', () => {
  it('keeps only ciphertext in its store when the OS encrypts', async () => {
    const { files, createStore } = stores();
    const vault = new SafeStorageVault({
      createStore,
      platform: 'linux',
      safeStorage: fakeSafeStorage('gnome_libsecret'),
    });
    await vault.set('connection:a', SECRET);
    expect(vault.protection).toBe('os-encryption');
    expect(vault.persistent).toBe(true);
    expect(await vault.get('connection:a')).toBe(SECRET);
    const text = [...files.files.values()].join('\n');
    expect(text).toContain('os1:');
    expect(text).not.toContain(SECRET);
    // A second instance over the same files reads it back (it survives a restart).
    const again = new SafeStorageVault({
      createStore: createMemoryStoreFactory({ log: new MemoryLogger(), notify: () => undefined }, files),
      platform: 'linux',
      safeStorage: fakeSafeStorage('kwallet5'),
    });
    expect(await again.get('connection:a')).toBe(SECRET);
    await again.delete('connection:a');
    expect(await again.has('connection:a')).toBe(false);
  });

  it('on basic_text keeps secrets for this run only, says so, and stores them only after consent', async () => {
    const { files, createStore } = stores();
    const vault = new SafeStorageVault({ createStore, platform: 'linux', safeStorage: fakeSafeStorage('basic_text') });
    await vault.set('connection:a', SECRET);
    expect(vault.protection).toBe('memory');
    const info = vault.storageInfo();
    expect(info).toMatchObject({ persistent: false, canAcceptWeakStorage: true, weakStorageAccepted: false });
    expect(info.notice).toMatch(/basic_text.*this run only/s);
    expect([...files.files.values()].join('\n')).not.toContain('connection:a');
    expect(await vault.get('connection:a')).toBe(SECRET);

    await vault.acceptWeakStorage();
    expect(vault.protection).toBe('weak');
    expect(vault.storageInfo().notice).toMatch(/weak protection/);
    const text = [...files.files.values()].join('\n');
    expect(text).toContain('connection:a');
    expect(text).not.toContain(SECRET);
    expect(await vault.get('connection:a')).toBe(SECRET);
  });

  it('answers the consent questions through the plain vault methods, so wrappers do not hide them', async () => {
    const { createStore } = stores();
    const inner = new SafeStorageVault({ createStore, platform: 'linux', safeStorage: fakeSafeStorage('basic_text') });
    const wrapped: CredentialVault = {
      get protection() {
        return inner.protection;
      },
      get persistent() {
        return inner.persistent;
      },
      set: (id, s) => inner.set(id, s),
      get: (id) => inner.get(id),
      has: (id) => inner.has(id),
      delete: (id) => inner.delete(id),
    };
    expect(await describeVault(wrapped)).toMatchObject({
      protection: 'memory',
      canAcceptWeakStorage: true,
      weakStorageAccepted: false,
    });
    expect((await describeVault(wrapped)).notice).toMatch(/basic_text/);
    await acceptWeakStorage(wrapped);
    expect(await describeVault(wrapped)).toMatchObject({
      protection: 'weak',
      persistent: true,
      canAcceptWeakStorage: false,
      weakStorageAccepted: true,
    });
  });

  it('falls back the same way when no encryption is available at all', async () => {
    const { createStore } = stores();
    const vault = new SafeStorageVault({
      createStore,
      platform: 'darwin',
      safeStorage: fakeSafeStorage('unknown', false),
    });
    expect(vault.storageInfo().notice).toMatch(/offers no encryption/);
    await vault.acceptWeakStorage();
    await vault.set('x', SECRET);
    expect(await vault.get('x')).toBe(SECRET);
  });
});

describe('EnvVault and weak storage', () => {
  it('reads an API key or a client id and secret from the environment', async () => {
    expect(credentialsFromEnv({ STUDIO_API_KEY: ' k1234567 ' })).toEqual({ kind: 'api-key', apiKey: 'k1234567' });
    expect(credentialsFromEnv({ STUDIO_CLIENT_ID: 'id', STUDIO_CLIENT_SECRET: 'sec' })).toEqual({
      kind: 'client-credentials',
      clientId: 'id',
      clientSecret: 'sec',
    });
    expect(credentialsFromEnv({ STUDIO_CLIENT_ID: 'id' })).toBeUndefined();
    const vault = new EnvVault({ STUDIO_API_KEY: SECRET });
    expect(decodeCredentials((await vault.get(secretId('any'))) ?? '')).toEqual({ kind: 'api-key', apiKey: SECRET });
    await vault.set(secretId('any'), encodeCredentials({ kind: 'api-key', apiKey: 'entered-1234' }));
    expect(decodeCredentials((await vault.get(secretId('any'))) ?? '')).toEqual({
      kind: 'api-key',
      apiKey: 'entered-1234',
    });
    await vault.delete(secretId('any'));
    expect(await vault.has(secretId('any'))).toBe(false);
    expect((await describeVault(vault)).notice).toMatch(/STUDIO_API_KEY/);
  });

  it('weak storage is reversible but never the clear text', () => {
    expect(encodeWeak(SECRET)).not.toContain(SECRET);
    expect(decodeWeak(encodeWeak(SECRET))).toBe(SECRET);
  });
});
