import { CHARACTER_SWAP_LIMITS } from '../api/character-swap';
import type { AiModel } from '../api/models';
import type { MediaCheck } from '../composition/media-checks';
import { mediaRefusal, readableMedia } from '../composition/media-fields';
import type { MediaInfo } from '../composition/media-info';

/** A character swap model (type 2101) of the model list, reduced to what the form offers. */
export interface SwapModelOption {
  value: string;
  label: string;
  provider: string;
  resolutions: { value: string; label: string; width: number; height: number; unitCredit: number }[];
}

/** The interface bills character swap per started 5 seconds, at the resolution's `unit_credit`. */
export const SWAP_UNIT_SECONDS = 5;

export function swapModelOptions(models: readonly AiModel[]): SwapModelOption[] {
  return models
    .filter((m) => m.type === 2101 && m.resolutionList.length > 0)
    .map((m) => ({
      value: m.value,
      label: m.label,
      provider: m.provider ?? '',
      resolutions: m.resolutionList.map((r) => ({
        value: r.value,
        label: r.label,
        width: r.width,
        height: r.height,
        unitCredit: r.unit_credit,
      })),
    }));
}

/** "12 s at 720p: 3 started 5 s × 10 credits = 30 credits". */
export function swapCost(seconds: number, unitCredit: number, resolution: string): { credits: number; basis: string } {
  const units = Math.ceil(seconds / SWAP_UNIT_SECONDS);
  const credits = units * unitCredit;
  return {
    credits,
    basis: `${trim(seconds)} s at ${resolution}: ${units} started 5 s × ${unitCredit} credits = ${credits} credits`,
  };
}

/**
 * The seconds a swap is billed for: the duration given, else the video's own length (what the service
 * detects), to a hundredth of a second. That figure is sent, so the confirmed cost is the charged one.
 */
export function swapSeconds(given: number | null | undefined, video: MediaInfo): number | null {
  if (typeof given === 'number') return given;
  return video.durationMs === null ? null : Math.round(video.durationMs / 10) / 100;
}

/**
 * The character image (PNG or JPEG) and the source video (MP4) as the interface states them, and the
 * billed seconds within 1 to 120.
 */
export function swapInputChecks(image: MediaInfo, video: MediaInfo, given: number | null | undefined): MediaCheck[] {
  const checks: MediaCheck[] = [];
  const badImage = mediaRefusal('swap-image', readableMedia(image));
  if (badImage) checks.push({ level: 'error', code: 'image-type', message: badImage });
  const readable = readableMedia(video);
  if (readable?.kind !== 'video') {
    checks.push({
      level: 'error',
      code: 'not-video',
      message: mediaRefusal('swap-video', readable) ?? 'The source must be a video.',
    });
    return checks;
  }
  const badVideo = mediaRefusal('swap-video', readable);
  if (badVideo) checks.push({ level: 'error', code: 'video-type', message: badVideo });
  const seconds = swapSeconds(given, video);
  const length = video.durationMs === null ? null : video.durationMs / 1000;
  const { minSeconds, maxSeconds } = CHARACTER_SWAP_LIMITS;
  if (seconds === null) {
    checks.push({
      level: 'error',
      code: 'duration-unknown',
      message: "The video's length could not be read; give a duration (1 to 120 s).",
    });
  } else if (seconds < minSeconds || seconds > maxSeconds) {
    checks.push({
      level: 'error',
      code: 'duration',
      message:
        typeof given === 'number'
          ? `The duration must be ${minSeconds} to ${maxSeconds} s (it is ${trim(seconds)} s).`
          : `The video lasts ${trim(seconds)} s; character swap takes ${minSeconds} to ${maxSeconds} s. Give a duration to use only the start of it.`,
    });
  } else if (typeof given === 'number' && length !== null && given > length + 0.05) {
    checks.push({
      level: 'warning',
      code: 'duration-beyond-video',
      message: `The duration (${trim(given)} s) is longer than the video (${trim(length)} s); the cost is reckoned on ${trim(given)} s.`,
    });
  }
  return checks;
}

function trim(value: number): string {
  return String(Math.round(value * 100) / 100);
}
