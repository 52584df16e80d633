import type { CredentialVault } from '../host/types';

/** How the current vault keeps secrets, in words the Settings page shows as they are. */
export interface VaultStorageInfo {
  protection: CredentialVault['protection'];
  persistent: boolean;
  /** Set when secrets are not protected the way the user would expect; says what happens and what they can do. */
  notice: string | null;
  /** The user may opt into storing secrets with weak (reversible) protection instead of for this run only. */
  canAcceptWeakStorage: boolean;
  weakStorageAccepted: boolean;
}

/** Vaults that may fall back to weaker storage implement this so the user can be told and asked. */
export interface WeakStorageConsent {
  storageInfo(): VaultStorageInfo;
  acceptWeakStorage(): Promise<void>;
}

/**
 * The same questions asked through the plain vault interface, so they survive wrappers that forward only
 * CredentialVault's methods (the host's redacting wrapper): `has(OFFER)` says weak storage can be
 * accepted, `has(CONSENT)` that it was, and `set(CONSENT, '1')` accepts it.
 */
export const WEAK_STORAGE_OFFER_ID = 'vault:weak-storage-offered';
export const WEAK_STORAGE_CONSENT_ID = 'vault:accept-weak-storage';

export function hasConsent(vault: CredentialVault): vault is CredentialVault & WeakStorageConsent {
  const candidate = vault as Partial<WeakStorageConsent>;
  return typeof candidate.storageInfo === 'function' && typeof candidate.acceptWeakStorage === 'function';
}

const genericNotices: Record<CredentialVault['protection'], string | null> = {
  'os-encryption': null,
  weak: 'Secrets are stored with weak protection: anyone who can read your files can recover them.',
  memory: 'Secrets are kept for this run only and must be entered again after a restart.',
  environment:
    'Credentials come from the environment (STUDIO_API_KEY, or STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET) for the connection at STUDIO_BASE_URL only; secrets entered here last for this run only.',
};

export async function describeVault(vault: CredentialVault): Promise<VaultStorageInfo> {
  if (hasConsent(vault)) return vault.storageInfo();
  const offered = await vault.has(WEAK_STORAGE_OFFER_ID);
  const accepted = await vault.has(WEAK_STORAGE_CONSENT_ID);
  let notice = genericNotices[vault.protection];
  if (offered) {
    notice =
      'The operating system offers no real encryption for secrets here (on Linux: no keyring, the "basic_text" backend). Secrets are kept for this run only and must be entered again after a restart, unless you accept weaker storage.';
  } else if (accepted && vault.protection === 'weak') {
    notice =
      'The operating system offers no real encryption for secrets here. You chose to store secrets anyway: they are saved with weak protection and anyone who can read your files can recover them.';
  }
  return {
    protection: vault.protection,
    persistent: vault.persistent,
    notice,
    canAcceptWeakStorage: offered,
    weakStorageAccepted: accepted,
  };
}

export async function acceptWeakStorage(vault: CredentialVault): Promise<void> {
  if (hasConsent(vault)) await vault.acceptWeakStorage();
  else await vault.set(WEAK_STORAGE_CONSENT_ID, '1');
}
