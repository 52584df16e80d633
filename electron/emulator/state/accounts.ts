import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors';
import type { ResolvedOptions } from '../options';
import type { StateStore } from './store';
import type { AccountState } from './types';
import { Code } from '../../common/api';

export interface Caller {
  account: AccountState;
  /** The credential string used (key or token), for per-credential rate limiting; never logged. */
  credential: string;
}

const SANDBOX_UID = 100001;

/**
 * One sandbox account reachable by its API key or by tokens issued for its client id and secret.
 * Authorization decides when both headers carry values (as the interface says).
 */
export class Accounts {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly store: StateStore,
    private readonly options: ResolvedOptions,
  ) {
    const key = String(SANDBOX_UID);
    if (!store.state.accounts[key]) {
      store.state.accounts[key] = { uid: SANDBOX_UID, credits: options.credits };
      store.changed();
    }
  }

  get account(): AccountState {
    return this.store.state.accounts[String(SANDBOX_UID)];
  }

  issueToken(clientId: string, clientSecret: string): { token: string; expire: number } {
    if (clientId !== this.options.clientId || clientSecret !== this.options.clientSecret) {
      throw new ApiError(Code.InvalidToken, 'clientId or clientSecret is not valid');
    }
    const token = randomBytes(24).toString('base64url');
    const expiresAt = this.options.now() + this.options.tokenTtlSeconds * 1000;
    this.store.state.tokens[token] = { uid: SANDBOX_UID, expiresAt };
    this.store.changed();
    return { token, expire: this.options.tokenTtlSeconds };
  }

  /** Resolves the caller from the two credential headers or throws 1102 / 1101. */
  authenticate(headers: Record<string, string | string[] | undefined>): Caller {
    const authorization = first(headers.authorization)?.trim() ?? '';
    const apiKey = first(headers['x-api-key'])?.trim() ?? '';
    if (authorization !== '') {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) throw new ApiError(Code.InvalidToken, 'Authorization must be "Bearer <token>"');
      const entry = this.store.state.tokens[match[1]];
      if (!entry) throw new ApiError(Code.InvalidToken, 'Invalid token');
      if (entry.expiresAt <= this.options.now()) throw new ApiError(Code.InvalidToken, 'Token expired');
      return { account: this.byUid(entry.uid), credential: `token:${match[1]}` };
    }
    if (apiKey !== '') {
      // The service's API key is the same value as the client secret: both are accepted.
      if (apiKey !== this.options.apiKey && apiKey !== this.options.clientSecret)
        throw new ApiError(Code.InvalidToken, 'Invalid API key');
      return { account: this.account, credential: `key:${apiKey}` };
    }
    throw new ApiError(
      Code.MissingToken,
      'Authorization/token cannot be empty: send x-api-key or Authorization: Bearer <token>',
    );
  }

  private byUid(uid: number): AccountState {
    const account = this.store.state.accounts[String(uid)];
    if (!account) throw new ApiError(Code.InvalidToken, 'Invalid token');
    return account;
  }

  /** Sliding one-second window per credential; throws 1005 past the limit. */
  checkRate(credential: string): void {
    const limit = this.options.rateLimit;
    if (!limit) return;
    const now = this.options.now();
    const recent = (this.windows.get(credential) ?? []).filter((t) => now - t < 1000);
    if (recent.length >= limit) {
      this.windows.set(credential, recent);
      throw new ApiError(Code.TooFrequent, `Operation too frequent: at most ${limit} requests per second`);
    }
    recent.push(now);
    this.windows.set(credential, recent);
  }

  /** Takes credits or throws (1006, or 1104 for live sessions) without changing anything. */
  charge(
    account: AccountState,
    amount: number,
    insufficientCode: typeof Code.InsufficientQuota | typeof Code.InsufficientCredit = Code.InsufficientQuota,
  ): void {
    if (amount > account.credits) {
      throw new ApiError(
        insufficientCode,
        `Insufficient credit balance: this needs ${amount} credits, ${account.credits} left`,
      );
    }
    account.credits -= amount;
    this.store.changed();
  }

  refund(account: AccountState, amount: number): void {
    account.credits += amount;
    this.store.changed();
  }

  setCredits(credits: number): void {
    this.account.credits = credits;
    this.store.changed();
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
