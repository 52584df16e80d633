import type { JobKind, JobView } from '@common/bridge';

export type InputKind = 'video' | 'audio' | 'image';

/** Which finished jobs give a usable input of each kind. */
const RESULT_KINDS: Record<InputKind, readonly JobKind[]> = {
  video: ['lipsync', 'avatar-video', 'talking-avatar', 'character-swap'],
  audio: ['tts', 'voice-clone'],
  image: [],
};

/** Library results that can be an input: completed, with a link that has not expired. */
export function libraryChoices(
  jobs: readonly JobView[],
  kind: InputKind,
  now: number,
): { label: string; value: string }[] {
  return jobs
    .filter(
      (j) =>
        j.phase === 'completed' &&
        j.resultUrl &&
        RESULT_KINDS[kind].includes(j.kind) &&
        (j.expiresAt === null || j.expiresAt > now),
    )
    .map((j) => ({ label: `${j.summary} · ${new Date(j.createdAt).toLocaleString()}`, value: j.resultUrl as string }));
}

export const isLink = (value: string): boolean => /^https?:\/\/[^\s/]+/i.test(value.trim());
export const isLocal = (value: string): boolean => value.trim().startsWith('file:');
/** What the host can measure: a link or a local file the user chose. */
export const isUsable = (value: string): boolean => isLink(value) || isLocal(value);
