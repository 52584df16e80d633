import { characterSwapCost, CHARACTER_SWAP_CREDITS, type CharacterSwapResolution, type EndpointName } from '../../common/api';
import type { CostEstimate, JobKind } from '../../common/bridge/jobs';
import type { ServiceClient } from '../client/service-client';

/** What the engine needs to know about a job from one service answer. */
export interface RemoteSnapshot {
  remoteId: string;
  status: number;
  resultUrl: string | null;
  chargedCredits: number | null;
  failReason: string | null;
  answer: unknown;
}

export interface KindSpec {
  label: string;
  /** The create operation; its request schema validates the body before anything is written or sent. */
  createEndpoint: EndpointName;
  webhookField: 'webhookUrl' | 'webhookurl';
  create(client: ServiceClient, body: Record<string, unknown>, signal?: AbortSignal): Promise<RemoteSnapshot>;
  poll(client: ServiceClient, remote: { remoteId: string; request: Record<string, unknown> }, signal?: AbortSignal): Promise<RemoteSnapshot>;
  summary(body: Record<string, unknown>): string;
  estimate(body: Record<string, unknown>): CostEstimate | null;
}

const text = (value: unknown, max = 40): string => {
  const s = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};
const fileName = (url: unknown): string => (typeof url === 'string' ? text(url.split(/[?#]/)[0].split('/').pop(), 30) : '');
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function audioSnapshot(record: { _id: string; status: number; url: string }): RemoteSnapshot {
  return { remoteId: record._id, status: record.status, resultUrl: record.status === 3 ? str(record.url) : null, chargedCredits: null, failReason: null, answer: record };
}

interface VideoLike {
  _id: string;
  video_status: number;
  video?: string;
  deduction_duration?: number;
  deduction_credit?: number;
  faceswap_fail_reason?: string;
}

function videoSnapshot(record: VideoLike): RemoteSnapshot {
  return {
    remoteId: record._id,
    status: record.video_status,
    resultUrl: record.video_status === 3 ? str(record.video) : null,
    chargedCredits: num(record.deduction_credit) ?? num(record.deduction_duration),
    failReason: str(record.faceswap_fail_reason),
    answer: record,
  };
}

const pollVideo: KindSpec['poll'] = async (client, { remoteId }, signal) =>
  videoSnapshot(await client.call('videoInfo', { video_model_id: remoteId }, { signal }));
const pollAudio: KindSpec['poll'] = async (client, { remoteId }, signal) =>
  audioSnapshot(await client.call('audioInfo', { audio_model_id: remoteId }, { signal }));

function sceneCount(body: Record<string, unknown>): number {
  return Array.isArray(body.data) ? body.data.length : 0;
}

function avatarSnapshot(record: { _id?: string; avatar_id?: string; status?: number; url?: string }, fallbackId: string): RemoteSnapshot {
  const status = record.status ?? 1;
  return { remoteId: record._id ?? fallbackId, status, resultUrl: status === 3 ? str(record.url) : null, chargedCredits: null, failReason: null, answer: record };
}

export const jobKinds: Record<JobKind, KindSpec> = {
  tts: {
    createEndpoint: 'audioCreate',
    label: 'Speech',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => audioSnapshot(await client.call('audioCreate', body as never, { signal })),
    poll: pollAudio,
    summary: (b) => `Speech · voice ${text(b.voice_id, 20)} · "${text(b.input_text)}"`,
    estimate: () => null,
  },
  'voice-clone': {
    createEndpoint: 'audioClone',
    label: 'Cloned voice',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => audioSnapshot(await client.call('audioClone', body as never, { signal })),
    poll: pollAudio,
    summary: (b) => `Cloned voice · ${b.voice_url ? fileName(b.voice_url) : `voice ${text(b.voice_id, 20)}`} · "${text(b.input_text)}"`,
    estimate: () => null,
  },
  lipsync: {
    createEndpoint: 'lipSync',
    label: 'Lip sync',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => videoSnapshot(await client.call('lipSync', body as never, { signal })),
    poll: pollVideo,
    summary: (b) => `Lip sync · ${fileName(b.video_url)} + ${fileName(b.audio_url)}`,
    estimate: () => null,
  },
  'avatar-video': {
    createEndpoint: 'avatarVideoCreate',
    label: 'Avatar video',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => videoSnapshot(await client.call('avatarVideoCreate', body as never, { signal })),
    poll: pollVideo,
    summary: (b) => {
      const scenes = sceneCount(b);
      const first = Array.isArray(b.data) ? (b.data[0] as Record<string, unknown> | undefined) : undefined;
      const size = first ? `${String(first.width)}×${String(first.height)}` : '';
      return `Avatar video · ${scenes} scene${scenes === 1 ? '' : 's'}${size ? ` · ${size}` : ''}`;
    },
    estimate: () => null,
  },
  'talking-avatar': {
    createEndpoint: 'talkingAvatarCreate',
    label: 'Talking avatar',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => videoSnapshot(await client.call('talkingAvatarCreate', body as never, { signal })),
    poll: pollVideo,
    summary: (b) => {
      const elements = Array.isArray(b.elements) ? (b.elements as Record<string, unknown>[]) : [];
      const audio = elements.find((e) => e.type === 'audio');
      const words = audio?.input_text ? `"${text(audio.input_text)}"` : audio?.url ? fileName(audio.url) : '';
      return `Talking avatar · ${String(b.width)}×${String(b.height)}${words ? ` · ${words}` : ''}`;
    },
    estimate: () => null,
  },
  'character-swap': {
    createEndpoint: 'characterSwapCreate',
    label: 'Character swap',
    webhookField: 'webhookurl',
    create: async (client, body, signal) => {
      const record = await client.call('characterSwapCreate', body as never, { signal });
      return videoSnapshot({ ...record, video_status: record.status });
    },
    poll: pollVideo,
    summary: (b) => `Character swap · ${typeof b.mode === 'string' ? b.mode : 'animate'} · ${fileName(b.image)} onto ${fileName(b.video)} · ${typeof b.resolution === 'string' ? b.resolution : '720p'}`,
    estimate: (b) => {
      const resolution = (typeof b.resolution === 'string' && b.resolution in CHARACTER_SWAP_CREDITS ? b.resolution : '720p') as CharacterSwapResolution;
      const perStep = CHARACTER_SWAP_CREDITS[resolution];
      const seconds = num(b.duration);
      if (seconds === null) return null;
      return { credits: characterSwapCost(seconds, resolution), basis: `${seconds} s at ${resolution}: ${Math.ceil(seconds / 5)} × ${perStep} credits per started 5 s` };
    },
  },
  'avatar-upload': {
    createEndpoint: 'avatarCreate',
    label: 'Avatar upload',
    webhookField: 'webhookUrl',
    create: async (client, body, signal) => {
      const records = await client.call('avatarCreate', body as never, { signal });
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
      const list = await client.call('avatarList', { from: 3 }, { signal });
      const found = list.find((a) => a.avatar_id === remoteId);
      return avatarSnapshot(found ?? {}, remoteId);
    },
    summary: (b) => `Avatar upload · ${text(b.name ?? b.avatar_id, 30)} · ${fileName(b.url)}`,
    estimate: () => null,
  },
};

/** Adds the connection's callback address to a create, unless the body names one; avatar upload takes none. */
export function withWebhook(kind: JobKind, body: Record<string, unknown>, webhookUrl: string | null): Record<string, unknown> {
  if (!webhookUrl || kind === 'avatar-upload') return body;
  const field = jobKinds[kind].webhookField;
  return body[field] ? body : { ...body, [field]: webhookUrl };
}
