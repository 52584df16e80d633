import type { CredentialVault } from '../host/types';
import { MemoryVault } from '../store/memory-vault';
import { encodeCredentials, originOf, CONNECTION_SECRET_PREFIX } from './credentials';
import type { Credentials } from '../client/auth';

export type Env = Record<string, string | undefined>;

/** Credentials given to the web host or the CLI through the environment, or undefined. */
export function credentialsFromEnv(env: Env): Credentials | undefined {
  const apiKey = env.STUDIO_API_KEY?.trim();
  if (apiKey) return { kind: 'api-key', apiKey };
  const clientId = env.STUDIO_CLIENT_ID?.trim();
  const clientSecret = env.STUDIO_CLIENT_SECRET?.trim();
  if (clientId && clientSecret) return { kind: 'client-credentials', clientId, clientSecret };
  return undefined;
}

/**
 * The origin the environment's credentials are declared for (STUDIO_BASE_URL). Without it they are
 * bound to an origin no connection has, so they go nowhere.
 */
export const UNDECLARED_ORIGIN = 'undeclared:STUDIO_BASE_URL';
export function declaredOrigin(env: Env): string {
  const declared = env.STUDIO_BASE_URL?.trim();
  return (declared && originOf(declared)) || UNDECLARED_ORIGIN;
}

/**
 * The Node hosts' vault: a service connection at the origin of STUDIO_BASE_URL uses the credentials
 * in the environment (other connections get none) unless a secret was entered during this run (kept
 * in memory only, never written anywhere).
 */
export class EnvVault implements CredentialVault {
  readonly protection = 'environment' as const;
  readonly persistent = false;
  private readonly entered = new MemoryVault();
  private readonly cleared = new Set<string>();
  private readonly fromEnv: string | undefined;

  constructor(env: Env) {
    const credentials = credentialsFromEnv(env);
    this.fromEnv = credentials ? encodeCredentials(credentials, declaredOrigin(env)) : undefined;
  }

  async set(id: string, secret: string): Promise<void> {
    this.cleared.delete(id);
    await this.entered.set(id, secret);
  }
  async get(id: string): Promise<string | undefined> {
    const entered = await this.entered.get(id);
    if (entered !== undefined) return entered;
    if (this.cleared.has(id) || !id.startsWith(CONNECTION_SECRET_PREFIX)) return undefined;
    return this.fromEnv;
  }
  async has(id: string): Promise<boolean> {
    return (await this.get(id)) !== undefined;
  }
  async delete(id: string): Promise<void> {
    await this.entered.delete(id);
    this.cleared.add(id);
  }
}
