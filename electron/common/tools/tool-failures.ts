/**
 * What a refusal of the lip sync and character swap creates means for the person using the tool, in
 * plain words and with what they can do. The service's own table (client/explanations) stays the
 * general fallback; these are the answers these two tools are known for.
 */
const LIPSYNC: Readonly<Record<number, string>> = {
  1202:
    'This video has already been lip-synced in this language, and the service does that only once per video and language. ' +
    'Use a different video (or the earlier result in the Library), or give audio in another language.',
  1203: 'The service needs a video that carries its own sound track. Choose a video with audio.',
  1204: 'The video is longer than the 60 seconds lip sync takes. Cut it to 60 s or less.',
  1207: 'The video file is larger than the 300 MB lip sync takes. Compress or shorten it.',
  1210: 'The video runs above the 60 frames per second lip sync takes. Re-encode it at 25 fps (or below), which also gives the best result.',
};

const PRO_PLAN = 'Character swap needs the Pro plan or higher on the service.';
const CHARACTER_SWAP: Readonly<Record<number, string>> = {
  1103: `${PRO_PLAN} This account's plan is unpaid or its payment is overdue: settle it in the service's dashboard, then send again. Nothing was charged.`,
  1213: `${PRO_PLAN} This account is not on a paid subscription: upgrade it in the service's dashboard, then send again. Nothing was charged.`,
  1221: `${PRO_PLAN} This account has no subscription at all: subscribe in the service's dashboard, then send again. Nothing was charged.`,
};

export type ToolKind = 'lipsync' | 'character-swap';

/** The tool's own explanation of a service code, or null where the general one says it best. */
export function explainToolFailure(kind: ToolKind, code: number | null | undefined): string | null {
  if (typeof code !== 'number') return null;
  return (kind === 'lipsync' ? LIPSYNC : CHARACTER_SWAP)[code] ?? null;
}
