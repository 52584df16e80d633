import { z } from 'zod';
import {
  characterSwapCost,
  CHARACTER_SWAP_CREDITS,
  ENDPOINTS,
  type CharacterSwapResolution,
  type RequestOf,
  RecordStatus,
} from '../api';
import type { PurposeType } from './purpose';

/**
 * Every kind of paid job, described once: its create operation, its body schema (the create operation's
 * own request schema), its label, what its finished job leaves, the purpose it carries by default, its
 * callback field and its cost estimate. Every other table of kinds is derived from this one or checked
 * against it: a kind added here fails to compile, or fails a test naming the kind and the table, until
 * each has it (docs/contributing.md, "Recipe: add a job kind", lists them in the order they are named).
 */
export const JOB_KINDS = [
  'avatar-video',
  'talking-avatar',
  'tts',
  'voice-clone',
  'lipsync',
  'character-swap',
  'avatar-upload',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface CostEstimate {
  credits: number;
  /** How the figure was reached, e.g. "12 s at 720p: 3 × 10 credits per 5 s". */
  basis: string;
}

/** What the engine needs to know about a job from one service answer. */
export interface RemoteSnapshot {
  remoteId: string;
  status: number;
  resultUrl: string | null;
  chargedCredits: number | null;
  failReason: string | null;
  answer: unknown;
}

/** The create operations the kinds send, one per kind (the sandbox keeps a record kind for each). */
export type CreateEndpoint = KindEndpoint<JobKind>;

/**
 * What a finished job of a kind leaves: a clip or a sound (which decides its file's extension, whether
 * it has a picture, where the archive files it, and whether the Voices workspace lists it among the
 * recent voiceovers), whether the tools offer it as an input, and which scenes of the project it was
 * sent from it shows.
 */
export interface KindResult {
  media: 'video' | 'audio';
  offeredAsInput: boolean;
  /**
   * The project's scenes the result shows, so the captions that belong on it (subtitle files beside a
   * download, the Library's burn-in): every scene in order, the first scene alone, or null when the
   * result is not a project's video.
   */
  projectScenes: 'every' | 'first' | null;
}

/** Purposes with nothing but their type, which a kind can carry when its sender names none. */
export type DefaultPurpose = Extract<PurposeType, 'plain' | 'avatar-upload' | 'voice-clone'>;

/** The extension a result's file gets when its link does not say. */
export const RESULT_EXTENSIONS: Record<KindResult['media'], string> = { video: 'mp4', audio: 'mp3' };

export interface KindEntry<E extends CreateEndpoint = CreateEndpoint> {
  label: string;
  result: KindResult;
  /** The purpose of a job sent without one (the catalogue's own kinds refresh its lists when they end). */
  defaultPurpose: DefaultPurpose;
  createEndpoint: E;
  webhookField: 'webhookUrl' | 'webhookurl' | null;
  summary(body: RequestOf<E>): string;
  estimate(body: RequestOf<E>): CostEstimate | null;
}

const text = (value: unknown, max = 40): string => {
  const s = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};
/** A link's file name, its end kept when it is long: a stored upload's name starts with its content hash. */
const fileName = (url: unknown): string => {
  const last = typeof url === 'string' ? (url.split(/[?#]/)[0].split('/').pop() ?? '') : '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape is shown as it was written.
  }
  return name.length > 30 ? `…${name.slice(-29)}` : name;
};
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export const JOB_KIND_REGISTRY: { [K in JobKind]: KindEntry<KindEndpoint<K>> } = {
  tts: {
    label: 'Speech',
    result: { media: 'audio', offeredAsInput: true, projectScenes: null },
    defaultPurpose: 'plain',
    createEndpoint: 'audioCreate',
    webhookField: 'webhookUrl',
    summary: (b) => `Speech · voice ${text(b.voice_id, 20)} · "${text(b.input_text)}"`,
    estimate: () => null,
  },
  'voice-clone': {
    label: 'Cloned voice',
    result: { media: 'audio', offeredAsInput: true, projectScenes: null },
    defaultPurpose: 'voice-clone',
    createEndpoint: 'audioClone',
    webhookField: 'webhookUrl',
    summary: (b) =>
      `Cloned voice · ${b.voice_url ? fileName(b.voice_url) : `voice ${text(b.voice_id, 20)}`} · "${text(b.input_text)}"`,
    estimate: () => null,
  },
  lipsync: {
    label: 'Lip sync',
    result: { media: 'video', offeredAsInput: true, projectScenes: null },
    defaultPurpose: 'plain',
    createEndpoint: 'lipSync',
    webhookField: 'webhookUrl',
    summary: (b) => `Lip sync · ${fileName(b.video_url)} + ${fileName(b.audio_url)}`,
    estimate: () => null,
  },
  'avatar-video': {
    label: 'Avatar video',
    result: { media: 'video', offeredAsInput: true, projectScenes: 'every' },
    defaultPurpose: 'plain',
    createEndpoint: 'avatarVideoCreate',
    webhookField: 'webhookUrl',
    summary: (b) => {
      const scenes = Array.isArray(b.data) ? b.data.length : 0;
      const first = Array.isArray(b.data) ? (b.data[0] as Record<string, unknown> | undefined) : undefined;
      const size = first ? `${String(first.width)}×${String(first.height)}` : '';
      return `Avatar video · ${scenes} scene${scenes === 1 ? '' : 's'}${size ? ` · ${size}` : ''}`;
    },
    estimate: () => null,
  },
  'talking-avatar': {
    label: 'Talking avatar',
    result: { media: 'video', offeredAsInput: true, projectScenes: 'first' },
    defaultPurpose: 'plain',
    createEndpoint: 'talkingAvatarCreate',
    webhookField: 'webhookUrl',
    summary: (b) => {
      const elements = Array.isArray(b.elements) ? (b.elements as Record<string, unknown>[]) : [];
      const audio = elements.find((e) => e.type === 'audio');
      const words = audio?.input_text ? `"${text(audio.input_text)}"` : audio?.url ? fileName(audio.url) : '';
      return `Talking avatar · ${String(b.width)}×${String(b.height)}${words ? ` · ${words}` : ''}`;
    },
    estimate: () => null,
  },
  'character-swap': {
    label: 'Character swap',
    result: { media: 'video', offeredAsInput: true, projectScenes: null },
    defaultPurpose: 'plain',
    createEndpoint: 'characterSwapCreate',
    // The one create whose callback field is spelled in lower case.
    webhookField: 'webhookurl',
    summary: (b) =>
      `Character swap · ${typeof b.mode === 'string' ? b.mode : 'animate'} · ${fileName(b.image)} onto ${fileName(b.video)} · ${typeof b.resolution === 'string' ? b.resolution : '720p'}`,
    estimate: (b) => {
      const resolution = (
        typeof b.resolution === 'string' && b.resolution in CHARACTER_SWAP_CREDITS ? b.resolution : '720p'
      ) as CharacterSwapResolution;
      const seconds = num(b.duration);
      if (seconds === null) return null;
      return {
        credits: characterSwapCost(seconds, resolution),
        basis: `${seconds} s at ${resolution}: ${Math.ceil(seconds / 5)} × ${CHARACTER_SWAP_CREDITS[resolution]} credits per started 5 s`,
      };
    },
  },
  'avatar-upload': {
    label: 'Avatar upload',
    // The upload becomes one of the account's avatars, chosen as an avatar, not as a clip.
    result: { media: 'video', offeredAsInput: false, projectScenes: null },
    defaultPurpose: 'avatar-upload',
    createEndpoint: 'avatarCreate',
    // The interface takes no callback address for avatar uploads.
    webhookField: null,
    summary: (b) => `Avatar upload · ${text(b.name ?? b.avatar_id, 30)} · ${fileName(b.url)}`,
    estimate: () => null,
  },
};

type KindEndpoint<K extends JobKind> = {
  tts: 'audioCreate';
  'voice-clone': 'audioClone';
  lipsync: 'lipSync';
  'avatar-video': 'avatarVideoCreate';
  'talking-avatar': 'talkingAvatarCreate';
  'character-swap': 'characterSwapCreate';
  'avatar-upload': 'avatarCreate';
}[K];

/** The body a submission of this kind carries: exactly what its create operation takes. */
export type JobBody<K extends JobKind> = RequestOf<KindEndpoint<K>>;

/** Kinds whose result is sound (no picture, no thumbnail; the archive files them under Music). */
export function isAudioKind(kind: JobKind): boolean {
  return JOB_KIND_REGISTRY[kind].result.media === 'audio';
}

export const JOB_KIND_LABELS = Object.fromEntries(JOB_KINDS.map((k) => [k, JOB_KIND_REGISTRY[k].label])) as Record<
  JobKind,
  string
>;

/** The entry of a kind, typed loosely for code that handles every kind alike (summaries, estimates). */
export function kindEntry(
  kind: JobKind,
): KindEntry<CreateEndpoint> & { summary(body: unknown): string; estimate(body: unknown): CostEstimate | null } {
  return JOB_KIND_REGISTRY[kind] as never;
}

/**
 * Validates a body with the create operation's schema but keeps what the caller wrote (zod's output
 * would fill defaults that are the service's to apply, and change the request's hash).
 */
export function asSent<S extends z.ZodType>(schema: S): z.ZodType<z.input<S>> {
  return z.unknown().superRefine((value, ctx) => {
    const checked = schema.safeParse(value);
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }) as unknown as z.ZodType<z.input<S>>;
}

export function bodySchemaOf(kind: JobKind): z.ZodType {
  return asSent(ENDPOINTS[JOB_KIND_REGISTRY[kind].createEndpoint].request);
}

// ---- snapshots: how the create and info answers are read ----

export function audioSnapshot(record: { _id: string; status: number; url: string }): RemoteSnapshot {
  return {
    remoteId: record._id,
    status: record.status,
    resultUrl: record.status === RecordStatus.Completed ? str(record.url) : null,
    chargedCredits: null,
    failReason: null,
    answer: record,
  };
}

export interface VideoLike {
  _id: string;
  video_status: number;
  video?: string;
  deduction_duration?: number;
  deduction_credit?: number;
  faceswap_fail_reason?: string;
}

export function videoSnapshot(record: VideoLike): RemoteSnapshot {
  return {
    remoteId: record._id,
    status: record.video_status,
    resultUrl: record.video_status === RecordStatus.Completed ? str(record.video) : null,
    // deduction_duration is what the final result consumed: before the job completes it says 0 while the
    // credits are already taken, so only a completed job's figure is a charge.
    chargedCredits:
      num(record.deduction_credit) ??
      (record.video_status === RecordStatus.Completed ? num(record.deduction_duration) : null),
    failReason: str(record.faceswap_fail_reason),
    answer: record,
  };
}

export function avatarSnapshot(
  record: { _id?: string; avatar_id?: string; status?: number; url?: string; error_reasons?: unknown },
  fallbackId: string,
): RemoteSnapshot {
  const status = record.status ?? 1;
  // A failed upload says why in error_reasons (the link held no video, could not be downloaded, ...).
  const reasons = Array.isArray(record.error_reasons)
    ? record.error_reasons.filter((r): r is string => typeof r === 'string' && r.trim() !== '')
    : [];
  const failReason = status === RecordStatus.Failed && reasons.length > 0 ? reasons.join('; ') : null;
  return {
    remoteId: record._id ?? fallbackId,
    status,
    resultUrl: status === RecordStatus.Completed ? str(record.url) : null,
    chargedCredits: null,
    failReason,
    answer: record,
  };
}
