import type { CredentialVault } from '../host/types';
import type { Redactor } from './redact';

/**
 * Fields of encoded credentials that describe them rather than hold a secret: registering their
 * values blanked the words "api-key" and "client-credentials" (and the base URL) in every message.
 */
const DESCRIPTIVE_FIELDS = new Set(['kind', 'origin']);

/** Registers a stored secret, and every secret string inside it when it is JSON (encoded credentials). */
export function registerSecret(redactor: Redactor, secret: string): void {
  redactor.register(secret);
  try {
    const parsed: unknown = JSON.parse(secret);
    if (parsed && typeof parsed === 'object') {
      for (const [field, value] of Object.entries(parsed))
        if (typeof value === 'string' && !DESCRIPTIVE_FIELDS.has(field)) redactor.register(value);
    }
  } catch {
    // Not JSON: the whole string was registered above.
  }
}

/**
 * Wraps a vault so that every secret that passes through it (stored or read) is known to the redactor:
 * it then cannot reach a log line or a bridge error message, whoever writes them.
 */
export function secretAwareVault(vault: CredentialVault, redactor: Redactor): CredentialVault {
  return {
    get protection() {
      return vault.protection;
    },
    get persistent() {
      return vault.persistent;
    },
    async set(id, secret) {
      registerSecret(redactor, secret);
      await vault.set(id, secret);
    },
    async get(id) {
      const secret = await vault.get(id);
      if (secret !== undefined) registerSecret(redactor, secret);
      return secret;
    },
    has: (id) => vault.has(id),
    delete: (id) => vault.delete(id),
  };
}
