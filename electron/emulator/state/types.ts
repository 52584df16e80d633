import type { RecordStatusValue } from '../../common/api';
import type { CreateEndpoint } from '../../common/jobs/kinds';

/**
 * The sandbox's record kind for each create operation the studio's job kinds send (the registry's
 * `createEndpoint`s, common/jobs/kinds.ts): a kind sent through an operation the sandbox has no record
 * kind for fails to compile here, naming the operation; a new record kind then fails to compile where
 * it lacks its processor (index.ts), its answer and its callback type (views.ts).
 */
export const RECORD_KINDS = {
  audioCreate: 'tts',
  audioClone: 'clone',
  lipSync: 'lipsync',
  avatarVideoCreate: 'avatar_video',
  talkingAvatarCreate: 'talking_avatar',
  characterSwapCreate: 'character_swap',
  avatarCreate: 'avatar',
} as const satisfies Record<CreateEndpoint, string>;

export type JobKind = (typeof RECORD_KINDS)[CreateEndpoint];

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
