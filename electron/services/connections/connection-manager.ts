import { randomUUID } from 'node:crypto';
import { sandboxTopUp } from './sandbox-top-up';
import {
  SANDBOX_CONNECTION_ID,
  type ConnectionPlacement,
  type ConnectionPatch,
  type ConnectionTest,
  type ConnectionView,
  type ConnectionsState,
  type NewConnection,
  type SecretInput,
  type VaultStorage,
} from '../../common/bridge/connections';
import type { Credentials } from '../client/auth';
import { ServiceError, isServiceError } from '../client/errors';
import { ServiceClient, type ServiceClientOptions } from '../client/service-client';
import type { CredentialVault, RecordStore, RecordStoreFactory } from '../host/types';
import type { EngineConnection, EngineConnections } from '../jobs/engine';
import { serviceAddressProblem } from '../../common/net/address-rules';
import { DEFAULT_PLACEMENT, type PlacementConvention } from '../../common/composition/placement';
import { decodeCredentials, encodeCredentials, originOf, secretId } from './credentials';
import { acceptWeakStorage, describeVault } from './vault-consent';
import { connectionsSpec, type ConnectionsRecord, type StoredConnection } from './connections-record';

export { connectionsSpec } from './connections-record';

const ASSUMED: ConnectionPlacement = { ...DEFAULT_PLACEMENT, source: 'assumed', checkedAt: null };

/** The service takes one callback address a create: the connection's own webhook, or the studio's receiver. */
function assertOneCallbackAddress(stored: StoredConnection): void {
  if (stored.webhookUrl && stored.callbacks)
    throw new Error(
      'A create carries one callback address: clear the webhook URL to receive callbacks in the studio, or clear the callback address.',
    );
}

function assertServiceAddress(url: string): void {
  const problem = serviceAddressProblem(url.trim());
  if (problem) throw new Error(`The base URL ${problem}.`);
}

export class ConnectionNotFoundError extends Error {
  constructor(id: string) {
    super(`No connection with id "${id}"`);
    this.name = 'ConnectionNotFoundError';
  }
}

/** Where every client's requests take their turns (the host's choice: in memory, or a queue's Redis). */
export type ClientLimiter = NonNullable<ServiceClientOptions['limiter']>;

export interface ConnectionManagerDeps {
  createStore: RecordStoreFactory;
  vault: CredentialVault;
  /** Starts the built-in sandbox on first use. */
  sandbox(): Promise<{ baseUrl: string; apiKey: string }>;
  /** fetch, limiter, clock, timeouts and retry settings for every client this manager builds. */
  clientOptions?: Omit<ServiceClientOptions, 'baseUrl' | 'credentials'>;
  /** Called after any change (to push `connections.changed`). */
  onChange?(state: ConnectionsState): void;
  newId?: () => string;
}

/**
 * The sandbox plus any number of service connections. Credentials go to the vault and come out only
 * inside this host, to build a client; views say whether a secret exists, never what it is.
 */
export class ConnectionManager implements EngineConnections {
  private readonly store: RecordStore<ConnectionsRecord>;
  private readonly clients = new Map<string, Promise<ServiceClient>>();
  private sandboxUrl: string | null = null;

  constructor(private readonly deps: ConnectionManagerDeps) {
    this.store = deps.createStore(connectionsSpec);
  }

  async state(): Promise<ConnectionsState> {
    const record = this.store.get();
    const activeId = this.exists(record.activeId) ? record.activeId : SANDBOX_CONNECTION_ID;
    const connections: ConnectionView[] = [
      {
        id: SANDBOX_CONNECTION_ID,
        name: 'Sandbox',
        baseUrl: this.sandboxUrl,
        builtIn: true,
        authKind: 'api-key',
        hasSecret: true,
        webhookUrl: record.sandboxWebhookUrl,
        // The sandbox takes no callbacks; said as for any connection without them, so every view has one shape.
        callbacks: null,
        active: activeId === SANDBOX_CONNECTION_ID,
        placement: record.sandboxPlacement ?? { ...DEFAULT_PLACEMENT, source: 'built-in', checkedAt: null },
      },
    ];
    for (const stored of record.connections) connections.push(await this.view(stored, activeId));
    return { connections, activeId, storage: await this.storage() };
  }

  storage(): Promise<VaultStorage> {
    return describeVault(this.deps.vault);
  }

  async acceptWeakStorage(): Promise<VaultStorage> {
    if (!(await this.storage()).canAcceptWeakStorage) return this.storage();
    await acceptWeakStorage(this.deps.vault);
    await this.changed();
    return this.storage();
  }

  async get(id: string): Promise<ConnectionView> {
    const found = (await this.state()).connections.find((c) => c.id === id);
    if (!found) throw new ConnectionNotFoundError(id);
    return found;
  }

  async add(input: NewConnection): Promise<ConnectionView> {
    const name = input.name.trim();
    this.assertUniqueName(name);
    assertServiceAddress(input.baseUrl);
    const stored: StoredConnection = {
      id: this.deps.newId?.() ?? randomUUID(),
      name,
      baseUrl: input.baseUrl.trim(),
      webhookUrl: input.webhookUrl ?? null,
      callbacks: input.callbacks ?? null,
    };
    assertOneCallbackAddress(stored);
    this.store.update((r) => ({ ...r, connections: [...r.connections, stored] }));
    await this.changed();
    return this.get(stored.id);
  }

  async update(id: string, patch: ConnectionPatch): Promise<ConnectionView> {
    if (id === SANDBOX_CONNECTION_ID) {
      if (patch.name !== undefined || patch.baseUrl !== undefined || patch.callbacks)
        throw new Error(
          'The sandbox connection cannot be renamed, moved or called back; only its webhook URL can change.',
        );
      if (patch.webhookUrl !== undefined)
        this.store.update((r) => ({ ...r, sandboxWebhookUrl: patch.webhookUrl ?? null }));
    } else {
      const current = this.stored(id);
      if (patch.name !== undefined && patch.name.trim() !== current.name) this.assertUniqueName(patch.name.trim());
      if (patch.baseUrl !== undefined) assertServiceAddress(patch.baseUrl);
      const next: StoredConnection = {
        ...current,
        name: patch.name?.trim() ?? current.name,
        baseUrl: patch.baseUrl?.trim() ?? current.baseUrl,
        webhookUrl: patch.webhookUrl === undefined ? current.webhookUrl : patch.webhookUrl,
        callbacks: patch.callbacks === undefined ? (current.callbacks ?? null) : patch.callbacks,
      };
      assertOneCallbackAddress(next);
      // A secret, and a measured placement, belong to the origin they were found at: moving drops them.
      if (originOf(next.baseUrl) !== originOf(current.baseUrl)) {
        await this.deps.vault.delete(secretId(id));
        delete next.placement;
      }
      this.store.update((r) => ({ ...r, connections: r.connections.map((c) => (c.id === id ? next : c)) }));
    }
    this.clients.delete(id);
    await this.changed();
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    if (id === SANDBOX_CONNECTION_ID) throw new Error('The sandbox connection is built in and cannot be removed.');
    this.stored(id);
    await this.deps.vault.delete(secretId(id));
    this.store.update((r) => ({
      ...r,
      connections: r.connections.filter((c) => c.id !== id),
      activeId: r.activeId === id ? SANDBOX_CONNECTION_ID : r.activeId,
    }));
    this.clients.delete(id);
    await this.changed();
  }

  async setActive(id: string): Promise<ConnectionsState> {
    if (!this.exists(id)) throw new ConnectionNotFoundError(id);
    this.store.update((r) => ({ ...r, activeId: id }));
    return this.changed();
  }

  async setSecret(id: string, secret: SecretInput): Promise<ConnectionView> {
    if (id === SANDBOX_CONNECTION_ID) throw new Error('The sandbox connection brings its own key; nothing to set.');
    const stored = this.stored(id);
    const credentials: Credentials =
      secret.kind === 'api-key'
        ? { kind: 'api-key', apiKey: secret.apiKey.trim() }
        : { kind: 'client-credentials', clientId: secret.clientId.trim(), clientSecret: secret.clientSecret.trim() };
    await this.deps.vault.set(secretId(id), encodeCredentials(credentials, originOf(stored.baseUrl)));
    this.clients.delete(id);
    await this.changed();
    return this.get(id);
  }

  async clearSecret(id: string): Promise<ConnectionView> {
    if (id === SANDBOX_CONNECTION_ID) throw new Error('The sandbox connection brings its own key; nothing to clear.');
    this.stored(id);
    await this.deps.vault.delete(secretId(id));
    this.clients.delete(id);
    await this.changed();
    return this.get(id);
  }

  /** Records the convention Check placement proved for a connection (used by every body sent through it). */
  async setPlacement(id: string, convention: PlacementConvention, checkedAt: number): Promise<ConnectionView> {
    const placement: ConnectionPlacement = {
      anchor: convention.anchor,
      scale: convention.scale,
      source: 'measured',
      checkedAt,
    };
    if (id === SANDBOX_CONNECTION_ID) this.store.update((r) => ({ ...r, sandboxPlacement: placement }));
    else {
      this.stored(id);
      this.store.update((r) => ({
        ...r,
        connections: r.connections.map((c) => (c.id === id ? { ...c, placement } : c)),
      }));
    }
    await this.changed();
    return this.get(id);
  }

  /** Lists voices (cheap, authenticated) and says in words what happened. */
  async test(id: string): Promise<ConnectionTest> {
    const started = Date.now();
    try {
      const client = await this.client(id);
      const voices = await client.call('voiceList', {}, { timeoutMs: 15_000 });
      const latencyMs = Date.now() - started;
      return {
        ok: true,
        message: `Connected. The service accepted the credentials and listed ${voices.length} voice${voices.length === 1 ? '' : 's'} in ${latencyMs} ms.`,
        detail: null,
        latencyMs,
      };
    } catch (error) {
      if (isServiceError(error))
        return { ok: false, message: error.explanation, detail: error.message, latencyMs: null };
      return {
        ok: false,
        message: 'The test failed unexpectedly.',
        detail: error instanceof Error ? error.message : String(error),
        latencyMs: null,
      };
    }
  }

  /**
   * The active connection's credit balance (quota/info, which the service's own demos read). Any
   * failure, a service without that operation included, gives null: the balance is then not shown.
   */
  async balance(): Promise<{ connectionId: string; credit: number | null }> {
    const { id } = await this.active();
    try {
      const quota = await (await this.client(id)).call('quotaInfo', {});
      return { connectionId: id, credit: quota.credit };
    } catch {
      return { connectionId: id, credit: null };
    }
  }

  /** Adds credits to the sandbox's balance (its top-up control); a real account is topped up at the service. */
  async topUpSandbox(credits: number): Promise<{ connectionId: string; credit: number | null }> {
    if ((await this.active()).id !== SANDBOX_CONNECTION_ID)
      throw new Error('Only the sandbox is topped up from the studio; top up a real account at the service.');
    await sandboxTopUp(await this.deps.sandbox(), credits);
    return this.balance();
  }

  async active(): Promise<EngineConnection> {
    const { activeId } = await this.state();
    return this.engineConnection(activeId);
  }

  engineConnection(id: string): EngineConnection {
    const record = this.store.get();
    if (id === SANDBOX_CONNECTION_ID) return { id, name: 'Sandbox', webhookUrl: record.sandboxWebhookUrl };
    const stored = this.stored(id);
    return { id, name: stored.name, webhookUrl: stored.webhookUrl };
  }

  /** A client for an address given to one run (`--base-url`), with every client's options (a worker's shared turns). */
  clientFor(baseUrl: string, credentials: Credentials): ServiceClient {
    return new ServiceClient({ ...this.deps.clientOptions, baseUrl, credentials });
  }

  /** A client for a connection, built once and rebuilt after its address or credentials change. */
  client(id: string): Promise<ServiceClient> {
    let pending = this.clients.get(id);
    if (!pending) {
      pending = this.build(id);
      this.clients.set(id, pending);
      pending.catch(() => this.clients.delete(id));
    }
    return pending;
  }

  private async build(id: string): Promise<ServiceClient> {
    if (id === SANDBOX_CONNECTION_ID) {
      const sandbox = await this.deps.sandbox();
      this.sandboxUrl = sandbox.baseUrl;
      return this.clientFor(sandbox.baseUrl, { kind: 'api-key', apiKey: sandbox.apiKey });
    }
    const stored = this.stored(id);
    const problem = serviceAddressProblem(stored.baseUrl);
    if (problem)
      throw new ServiceError({
        kind: 'config',
        endpoint: stored.baseUrl,
        explanation: `The connection "${stored.name}" was not used: its base URL ${problem}. Change it in Settings → Connections.`,
      });
    const credentials = await this.credentialsOf(stored);
    if (!credentials) {
      throw new ServiceError({
        kind: 'config',
        endpoint: stored.baseUrl,
        explanation: `The connection "${stored.name}" has no credentials. Add an API key or a client id and secret in Settings → Connections.`,
      });
    }
    return this.clientFor(stored.baseUrl, credentials);
  }

  /** A connection's client id and secret (what webhook callbacks are sealed with); undefined for an API key or none. */
  async clientCredentials(id: string): Promise<{ clientId: string; clientSecret: string } | undefined> {
    const stored = this.store.get().connections.find((c) => c.id === id);
    const credentials = stored ? await this.credentialsOf(stored) : undefined;
    return credentials?.kind === 'client-credentials'
      ? { clientId: credentials.clientId, clientSecret: credentials.clientSecret }
      : undefined;
  }

  /** A connection's callback setting (where the service posts, where the receiver listens); null: polled. */
  callbacksOf(id: string): { url: string; listen: string } | null {
    return this.store.get().connections.find((c) => c.id === id)?.callbacks ?? null;
  }

  /** The connection's credentials, only if they were entered or declared for its current origin. */
  private async credentialsOf(stored: StoredConnection): Promise<Credentials | undefined> {
    const raw = await this.deps.vault.get(secretId(stored.id));
    return raw === undefined ? undefined : decodeCredentials(raw, originOf(stored.baseUrl));
  }

  private async view(stored: StoredConnection, activeId: string): Promise<ConnectionView> {
    const credentials = await this.credentialsOf(stored);
    return {
      id: stored.id,
      name: stored.name,
      baseUrl: stored.baseUrl,
      builtIn: false,
      authKind: credentials?.kind ?? null,
      hasSecret: credentials !== undefined,
      webhookUrl: stored.webhookUrl,
      callbacks: stored.callbacks ?? null,
      active: stored.id === activeId,
      placement: stored.placement ?? ASSUMED,
    };
  }

  private exists(id: string): boolean {
    return id === SANDBOX_CONNECTION_ID || this.store.get().connections.some((c) => c.id === id);
  }

  private stored(id: string): StoredConnection {
    const found = this.store.get().connections.find((c) => c.id === id);
    if (!found) throw new ConnectionNotFoundError(id);
    return found;
  }

  private assertUniqueName(name: string): void {
    const taken =
      name.toLowerCase() === 'sandbox' ||
      this.store.get().connections.some((c) => c.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new Error(`A connection named "${name}" already exists; choose another name.`);
  }

  private async changed(): Promise<ConnectionsState> {
    const state = await this.state();
    this.deps.onChange?.(state);
    return state;
  }

  /** Finds a connection by its name (the CLI's --connection), case-insensitively. */
  findByName(name: string): ConnectionView['id'] | undefined {
    if (name.toLowerCase() === 'sandbox') return SANDBOX_CONNECTION_ID;
    return this.store.get().connections.find((c) => c.name.toLowerCase() === name.toLowerCase())?.id;
  }

  namesForCli(): string[] {
    return this.store.get().connections.map((c) => c.name);
  }

  baseUrlOf(id: string): string | null {
    return id === SANDBOX_CONNECTION_ID ? this.sandboxUrl : this.stored(id).baseUrl;
  }
}
