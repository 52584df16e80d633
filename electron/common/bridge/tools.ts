import { z } from 'zod';
import { CHARACTER_SWAP_LIMITS, CHARACTER_SWAP_MODES } from '../api/character-swap';
import { MediaInfo } from '../composition/media-info';
import { call } from './contract';
import { PaidConfirmation, SubmitResult } from './jobs';

/**
 * Lip sync and character swap: the inputs are measured on the host with ffprobe and checked against
 * the interface's limits before anything is sent; sending re-measures, so a page cannot skip a check.
 */

/** A web link, a Library result's link, or a local file the user granted (`file:`). */
const toolMedia = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `give the ${what}: a link, a Library result or a local file`)
    .max(4096, `the ${what} link is too long`)
    .refine(
      (v) => /^https?:\/\/[^\s/]+/i.test(v) || v.startsWith('file:'),
      `the ${what} must be an http(s) link or a local file you chose`,
    );

export const ToolCheck = z.object({ level: z.enum(['error', 'warning']), code: z.string(), message: z.string() });
export type ToolCheck = z.infer<typeof ToolCheck>;

export const LipSyncInputs = z.object({ video: toolMedia('video'), audio: toolMedia('audio') });
export type LipSyncInputs = z.infer<typeof LipSyncInputs>;

export const LipSyncMeasure = z.object({ video: MediaInfo, audio: MediaInfo, checks: z.array(ToolCheck) });
export type LipSyncMeasure = z.infer<typeof LipSyncMeasure>;

const confirmDuplicate = z.boolean().optional();

export const SwapInputs = z.object({
  image: toolMedia('character image'),
  video: toolMedia('source video'),
  /** A value of the chosen model's resolution list; the first model's 720p (or first) when absent. */
  resolution: z.string().trim().min(1).max(40).optional(),
  /** Seconds; absent: the video's own length. */
  duration: z
    .number({ error: 'the duration must be a number of seconds' })
    .min(
      CHARACTER_SWAP_LIMITS.minSeconds,
      `the duration must be ${CHARACTER_SWAP_LIMITS.minSeconds} to ${CHARACTER_SWAP_LIMITS.maxSeconds} s`,
    )
    .max(
      CHARACTER_SWAP_LIMITS.maxSeconds,
      `the duration must be ${CHARACTER_SWAP_LIMITS.minSeconds} to ${CHARACTER_SWAP_LIMITS.maxSeconds} s`,
    )
    .optional(),
  /** A type 2101 model's value; absent: the first the list offers. */
  model: z.string().trim().min(1).max(200).optional(),
});
export type SwapInputs = z.infer<typeof SwapInputs>;

export const SwapModelOption = z.object({
  value: z.string(),
  label: z.string(),
  provider: z.string(),
  resolutions: z.array(
    z.object({ value: z.string(), label: z.string(), width: z.number(), height: z.number(), unitCredit: z.number() }),
  ),
});

export const SwapQuote = z.object({
  models: z.array(SwapModelOption),
  model: z.string(),
  resolution: z.string(),
  unitCredit: z.number(),
  /** What is billed and sent as `duration`. */
  seconds: z.number().nullable(),
  /** True when the seconds are the video's own length (no duration given). */
  detected: z.boolean(),
  credits: z.number().nullable(),
  basis: z.string(),
  image: MediaInfo,
  video: MediaInfo,
  checks: z.array(ToolCheck),
});
export type SwapQuote = z.infer<typeof SwapQuote>;

export const SwapSend = SwapInputs.extend({
  mode: z.enum(CHARACTER_SWAP_MODES, { error: 'the mode must be animate or replace' }).optional(),
  prompt: z
    .string()
    .max(CHARACTER_SWAP_LIMITS.maxPrompt, `the prompt must be at most ${CHARACTER_SWAP_LIMITS.maxPrompt} characters`)
    .optional(),
  /** The credits the user saw and agreed to; a different current cost refuses the send. */
  confirmedCredits: z.number().int().nonnegative(),
  /** Sent without the question, under the user's no-question limit; absent: the user answered. */
  confirmation: z.object({ by: z.literal('limit'), credits: z.number().nonnegative() }).optional(),
  confirmDuplicate,
});
export type SwapSend = z.infer<typeof SwapSend>;

export const toolsCalls = {
  'tools.lipsyncMeasure': call(z.tuple([LipSyncInputs]), LipSyncMeasure),
  'tools.lipsyncSend': call(
    z.tuple([LipSyncInputs.extend({ confirmDuplicate, confirmation: PaidConfirmation })]),
    SubmitResult,
  ),
  'tools.swapQuote': call(z.tuple([SwapInputs]), SwapQuote),
  'tools.swapSend': call(z.tuple([SwapSend]), SubmitResult),
};
