import type { CredentialVault } from '../host/types';

/** Keeps secrets in memory only: for tests, and for hosts that must not write secrets anywhere. */
export class MemoryVault implements CredentialVault {
  readonly protection = 'memory' as const;
  readonly persistent = false;
  private readonly secrets = new Map<string, string>();

  async set(id: string, secret: string): Promise<void> {
    this.secrets.set(id, secret);
  }
  async get(id: string): Promise<string | undefined> {
    return this.secrets.get(id);
  }
  async has(id: string): Promise<boolean> {
    return this.secrets.has(id);
  }
  async delete(id: string): Promise<void> {
    this.secrets.delete(id);
  }
}
