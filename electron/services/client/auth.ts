import type { Clock } from './clock';

export type Credentials =
  { kind: 'api-key'; apiKey: string } | { kind: 'client-credentials'; clientId: string; clientSecret: string };

/** Supplies the authentication headers of each request; refresh() is offered only where a token can be renewed. */
export interface AuthProvider {
  headers(signal?: AbortSignal): Promise<Record<string, string>>;
  /** Drops the cached token and fetches a new one. Absent for static keys. */
  refresh?(signal?: AbortSignal): Promise<void>;
}

export class ApiKeyAuth implements AuthProvider {
  constructor(private readonly apiKey: string) {}
  async headers(): Promise<Record<string, string>> {
    return { 'x-api-key': this.apiKey };
  }
}

export interface IssuedToken {
  token: string;
  /** Epoch ms after which the token should not be used; undefined when the service did not say. */
  expiresAt?: number;
}

/**
 * Exchanges a client id and secret for a bearer token, caches it until shortly before it expires, and
 * shares one exchange between concurrent callers.
 */
export class ClientCredentialsAuth implements AuthProvider {
  private current: IssuedToken | undefined;
  private pending: Promise<IssuedToken> | undefined;

  constructor(
    private readonly exchange: (signal?: AbortSignal) => Promise<IssuedToken>,
    private readonly clock: Clock,
    private readonly earlyRenewMs = 30_000,
  ) {}

  async headers(signal?: AbortSignal): Promise<Record<string, string>> {
    const token = await this.token(signal);
    return { Authorization: `Bearer ${token.token}` };
  }

  async refresh(signal?: AbortSignal): Promise<void> {
    this.current = undefined;
    await this.token(signal);
  }

  private async token(signal?: AbortSignal): Promise<IssuedToken> {
    const now = this.clock.now();
    if (this.current && (this.current.expiresAt === undefined || this.current.expiresAt - this.earlyRenewMs > now)) {
      return this.current;
    }
    this.pending ??= this.exchange(signal).finally(() => {
      this.pending = undefined;
    });
    this.current = await this.pending;
    return this.current;
  }
}
