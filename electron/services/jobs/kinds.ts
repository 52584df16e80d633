import {
  JOB_KIND_REGISTRY,
  audioSnapshot,
  avatarSnapshot,
  kindEntry,
  videoSnapshot,
  type CreateEndpoint,
  type JobKind,
  type RemoteSnapshot,
} from '../../common/jobs/kinds';
import type { RequestOf } from '../../common/api';
import { findAvatar } from '../client/avatar-lookup';
import type { CallOptions, ServiceClient } from '../client/service-client';

export type { RemoteSnapshot } from '../../common/jobs/kinds';

/**
 * The service calls of one create operation: how a job sent through it is created and polled. They are
 * the operation's, not the kind's, so a kind that sends an operation another kind already sends needs
 * nothing here; everything else about a kind is in the registry (common/jobs/kinds.ts).
 */
interface OperationCalls<E extends CreateEndpoint> {
  create(client: ServiceClient, body: RequestOf<E>, options: CallOptions): Promise<RemoteSnapshot>;
  poll(
    client: ServiceClient,
    remote: { remoteId: string; request: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<RemoteSnapshot>;
}

const pollVideo: OperationCalls<CreateEndpoint>['poll'] = async (client, { remoteId }, signal) =>
  videoSnapshot(await client.call('videoInfo', { video_model_id: remoteId }, { signal }));
const pollAudio: OperationCalls<CreateEndpoint>['poll'] = async (client, { remoteId }, signal) =>
  audioSnapshot(await client.call('audioInfo', { audio_model_id: remoteId }, { signal }));

const calls: { [E in CreateEndpoint]: OperationCalls<E> } = {
  audioCreate: {
    create: async (client, body, options) => audioSnapshot(await client.call('audioCreate', body, options)),
    poll: pollAudio,
  },
  audioClone: {
    create: async (client, body, options) => audioSnapshot(await client.call('audioClone', body, options)),
    poll: pollAudio,
  },
  lipSync: {
    create: async (client, body, options) => videoSnapshot(await client.call('lipSync', body, options)),
    poll: pollVideo,
  },
  avatarVideoCreate: {
    create: async (client, body, options) => videoSnapshot(await client.call('avatarVideoCreate', body, options)),
    poll: pollVideo,
  },
  talkingAvatarCreate: {
    create: async (client, body, options) => videoSnapshot(await client.call('talkingAvatarCreate', body, options)),
    poll: pollVideo,
  },
  characterSwapCreate: {
    create: async (client, body, options) => {
      const record = await client.call('characterSwapCreate', body, options);
      return videoSnapshot({ ...record, video_status: record.status });
    },
    poll: pollVideo,
  },
  avatarCreate: {
    create: async (client, body, options) => {
      const records = await client.call('avatarCreate', body, options);
      const first = records[0];
      if (!first) throw new Error('The service accepted the avatar but returned no record');
      return avatarSnapshot(first, first.avatar_id);
    },
    poll: async (client, { remoteId, request }, signal) => {
      // The detail call takes the record id; when the create answer carried none, find it by avatar_id.
      if (remoteId !== request.avatar_id) {
        const [record] = await client.call('avatarDetail', { id: remoteId }, { signal });
        return avatarSnapshot(record ?? {}, remoteId);
      }
      return avatarSnapshot((await findAvatar(client, remoteId, { from: 3, signal })) ?? {}, remoteId);
    },
  },
};

/** The calls of the operation a kind creates through. */
const callsOf = (kind: JobKind): OperationCalls<CreateEndpoint> =>
  // One operation chosen at run time: the compiler cannot pair the body with it, the schema check already did.
  calls[JOB_KIND_REGISTRY[kind].createEndpoint] as OperationCalls<CreateEndpoint>;

/** Sends the create of a job of any kind (the body was validated against the kind's schema). */
export function createJob(
  client: ServiceClient,
  kind: JobKind,
  body: Record<string, unknown>,
  options: CallOptions = {},
): Promise<RemoteSnapshot> {
  return callsOf(kind).create(client, body as never, options);
}

export function pollJob(
  client: ServiceClient,
  kind: JobKind,
  remote: { remoteId: string; request: Record<string, unknown> },
  signal?: AbortSignal,
): Promise<RemoteSnapshot> {
  return callsOf(kind).poll(client, remote, signal);
}

/** Adds the connection's callback address to a create, unless the body names one or the kind takes none. */
export function withWebhook(
  kind: JobKind,
  body: Record<string, unknown>,
  webhookUrl: string | null,
): Record<string, unknown> {
  const field = JOB_KIND_REGISTRY[kind].webhookField;
  if (!webhookUrl || !field) return body;
  return body[field] ? body : { ...body, [field]: webhookUrl };
}

export { kindEntry };
