import type { AiModelType } from '../../common/api';
import type {
  AvatarQuery,
  CatalogueAvatar,
  CatalogueModel,
  CatalogueVoice,
  VoiceQuery,
} from '../../common/bridge/catalogue';
import type { Clock } from '../client/clock';
import type { ServiceClient } from '../client/service-client';
import { everyAvatar } from './every-avatar';

export interface CatalogueDeps {
  /** The connections the lists come through: the active one's id is known at once, its client may take a start. */
  connections: { active(): Promise<{ id: string }>; client(id: string): Promise<ServiceClient> };
  clock: Clock;
  /** How long a list stays fresh; the asset panel asks often, the lists change rarely. Default 60 s. */
  ttlMs?: number;
  /** The model list changes with the service's releases, not with the user's work: kept 10 minutes unless refreshed. */
  modelTtlMs?: number;
}

/** Avatar, voice and model lists for the editor's asset panel, through the active connection. */
export class CatalogueService {
  private readonly cache = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly deps: CatalogueDeps) {}

  avatars(query: AvatarQuery = {}): Promise<CatalogueAvatar[]> {
    return this.cached('avatars', query, (client) => client.call('avatarList', query));
  }

  /** Every avatar of the connection, all pages read (see everyAvatar). */
  everyAvatar(): Promise<CatalogueAvatar[]> {
    return everyAvatar(this);
  }

  voices(query: VoiceQuery = {}): Promise<CatalogueVoice[]> {
    return this.cached('voices', query, (client) => client.call('voiceList', query));
  }

  models(types: readonly AiModelType[]): Promise<CatalogueModel[]> {
    const sorted = [...new Set(types)].sort();
    const ttl = this.deps.modelTtlMs ?? 10 * 60_000;
    return this.cached(
      'models',
      sorted,
      async (client) => {
        const models = await client.call('aiModelList', { types: sorted });
        return [...models].sort((a, b) => (b.sort ?? 0) - (a.sort ?? 0));
      },
      ttl,
    );
  }

  clear(): void {
    this.cache.clear();
  }

  private async cached<T>(
    what: string,
    query: unknown,
    load: (client: ServiceClient) => Promise<T>,
    ttlMs = this.deps.ttlMs ?? 60_000,
  ): Promise<T> {
    const { id: connectionId } = await this.deps.connections.active();
    const key = `${connectionId}|${what}|${JSON.stringify(query)}`;
    const now = this.deps.clock.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < ttlMs) return hit.value as Promise<T>;
    // Kept from the start, not from the answer: an ask while this one is under way joins it.
    const value = this.deps.connections.client(connectionId).then(load);
    this.cache.set(key, { at: now, value });
    // A failed load is not remembered: the next ask tries again.
    value.catch(() => {
      if (this.cache.get(key)?.value === value) this.cache.delete(key);
    });
    return value;
  }
}
