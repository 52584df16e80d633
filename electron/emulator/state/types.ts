import type { RecordStatusValue, WebhookType } from '../../common/api';
import type { CreateEndpoint } from '../../common/jobs/kinds';

/** How the sandbox keeps and answers the jobs of one create operation. */
export interface RecordKindSpec {
  /** The record kind its jobs are stored as. */
  kind: string;
  /** The shape of the record its info operation answers (and its callback carries): a method of Views. */
  record: 'audio' | 'video' | 'characterSwapInfo' | 'avatar';
  /** The operation that reads the record back. */
  readBy: 'audioInfo' | 'videoInfo' | 'avatarDetail';
  /** Its callback's `type`. */
  webhookType: WebhookType;
}

/**
 * The sandbox's record kind for each create operation the studio's job kinds send (the registry's
 * `createEndpoint`s, common/jobs/kinds.ts), with how its records are answered: a kind sent through an
 * operation the sandbox has no entry for fails to compile here, naming the operation; a new record kind
 * then fails to compile in index.ts until it has its processor, and the routes read it back through the
 * operation its entry names.
 */
export const RECORD_KINDS = {
  audioCreate: { kind: 'tts', record: 'audio', readBy: 'audioInfo', webhookType: 'audio' },
  audioClone: { kind: 'clone', record: 'audio', readBy: 'audioInfo', webhookType: 'audio' },
  lipSync: { kind: 'lipsync', record: 'video', readBy: 'videoInfo', webhookType: 'lipsync' },
  avatarVideoCreate: { kind: 'avatar_video', record: 'video', readBy: 'videoInfo', webhookType: 'avatar' },
  talkingAvatarCreate: { kind: 'talking_avatar', record: 'video', readBy: 'videoInfo', webhookType: 'avatar' },
  characterSwapCreate: {
    kind: 'character_swap',
    record: 'characterSwapInfo',
    readBy: 'videoInfo',
    webhookType: 'faceswap',
  },
  avatarCreate: { kind: 'avatar', record: 'avatar', readBy: 'avatarDetail', webhookType: 'avatar' },
} as const satisfies Record<CreateEndpoint, RecordKindSpec>;

export type JobKind = (typeof RECORD_KINDS)[CreateEndpoint]['kind'];

const SPECS: readonly RecordKindSpec[] = Object.values(RECORD_KINDS);

/** How the records of a kind are answered. */
export function recordKindSpec(kind: JobKind): RecordKindSpec {
  return SPECS.find((spec) => spec.kind === kind) as RecordKindSpec;
}

/** The record kinds an operation reads back. */
export function kindsReadBy(operation: RecordKindSpec['readBy']): JobKind[] {
  return SPECS.filter((spec) => spec.readBy === operation).map((spec) => spec.kind as JobKind);
}

/** One generation record as the sandbox keeps it; the routes turn it into the documented shapes. */
export interface JobRecord {
  _id: string;
  kind: JobKind;
  uid: number;
  status: RecordStatusValue;
  createdAt: number;
  updatedAt: number;
  /** Callback address (webhookUrl, or webhookurl for character swap); '' when none. */
  webhook: string;
  /** The validated request body. */
  request: Record<string, unknown>;
  /** Credits taken at create time. */
  cost: number;
  /** Result file name under files/ once the status is 3. */
  resultFile: string;
  /** Extra result files (thumbnails). */
  extraFiles: Record<string, string>;
  /** Facts measured while processing (duration in seconds, pitch, ...). */
  facts: Record<string, number | string>;
  reason: string;
  /** Delivery log of the callback: attempts made and the final outcome. */
  webhookLog: { attempts: number; delivered: boolean; lastError: string };
}

export interface LiveRecord {
  _id: string;
  uid: number;
  status: RecordStatusValue;
  closed: boolean;
  createdAt: number;
  sourceImage: { path: string; opts: string }[];
  front_user_id: string;
  algorithm_user_id: string;
  front_rtc_token: string;
  channel_id: string;
}

export interface UserVoice {
  _id: string;
  uid: number;
  voice_id: string;
  name: string;
  gender: string;
  createdAt: number;
  /** espeak-ng voice and pitch derived from the sample. */
  espeakVoice: string;
  pitch: number;
  /** Job whose result is the preview. */
  previewJob: string;
}

export interface AccountState {
  uid: number;
  credits: number;
}

export interface FileEntry {
  name: string;
  createdAt: number;
  expiresAt: number;
}

export interface EmulatorState {
  version: 1;
  accounts: Record<string, AccountState>;
  tokens: Record<string, { uid: number; expiresAt: number }>;
  jobs: Record<string, JobRecord>;
  live: Record<string, LiveRecord>;
  voices: Record<string, UserVoice>;
  files: Record<string, FileEntry>;
  counter: number;
}

export function emptyState(): EmulatorState {
  return { version: 1, accounts: {}, tokens: {}, jobs: {}, live: {}, voices: {}, files: {}, counter: 0 };
}
