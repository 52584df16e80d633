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

export function hasConsent(vault: CredentialVault): vault is CredentialVault & WeakStorageConsent {
  const candidate = vault as Partial<WeakStorageConsent>;
  return typeof candidate.storageInfo === 'function' && typeof candidate.acceptWeakStorage === 'function';
}

export function describeVault(vault: CredentialVault): VaultStorageInfo {
  if (hasConsent(vault)) return vault.storageInfo();
  const notices: Record<CredentialVault['protection'], string | null> = {
    'os-encryption': null,
    weak: 'Secrets are stored with weak protection: anyone who can read your files can recover them.',
    memory: 'Secrets are kept for this run only and must be entered again after a restart.',
    environment: 'Credentials come from the environment (STUDIO_API_KEY, or STUDIO_CLIENT_ID and STUDIO_CLIENT_SECRET); secrets entered here last for this run only.',
  };
  return {
    protection: vault.protection,
    persistent: vault.persistent,
    notice: notices[vault.protection],
    canAcceptWeakStorage: false,
    weakStorageAccepted: false,
  };
}
