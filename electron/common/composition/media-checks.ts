import { CHARACTER_SWAP_LIMITS } from '../api/character-swap';
import { LIP_SYNC_LIMITS } from '../api/video';
import { mediaRefusal, readableMedia } from './media-fields';
import type { MediaInfo } from './media-info';

/**
 * Pre-checks of the limits the service documents, run on probed media before a paid job is created.
 * Errors would be refused by the service (or waste credits); warnings degrade the result.
 */
export interface MediaCheck {
  level: 'error' | 'warning';
  code: string;
  message: string;
}

/** How far apart lip-sync audio and video lengths may be before we warn. */
const LENGTH_TOLERANCE_SECONDS = 0.5;

export function lipSyncChecks(video: MediaInfo, audio?: MediaInfo): MediaCheck[] {
  const checks: MediaCheck[] = [];
  const notVideo = mediaRefusal('lipsync-video', readableMedia(video));
  if (notVideo) {
    checks.push({ level: 'error', code: 'not-video', message: notVideo });
    return checks;
  }
  const seconds = (video.durationMs ?? 0) / 1000;
  if (seconds > LIP_SYNC_LIMITS.maxSeconds) {
    checks.push({
      level: 'error',
      code: 'too-long',
      message: `The video is ${fmt(seconds)} s long; lip sync takes at most ${LIP_SYNC_LIMITS.maxSeconds} s (the service would refuse it with 1204).`,
    });
  }
  if (video.sizeBytes !== null && video.sizeBytes > LIP_SYNC_LIMITS.maxBytes) {
    checks.push({
      level: 'error',
      code: 'too-large',
      message: `The video is ${fmt(video.sizeBytes / 1024 / 1024)} MB; lip sync takes at most 300 MB (the service would refuse it with 1207).`,
    });
  }
  if (video.fps !== null && video.fps > LIP_SYNC_LIMITS.maxFps) {
    checks.push({
      level: 'error',
      code: 'fps-too-high',
      message: `The video runs at ${fmt(video.fps)} fps; lip sync takes at most ${LIP_SYNC_LIMITS.maxFps} fps (the service would refuse it with 1210).`,
    });
  } else if (video.fps !== null && video.fps > LIP_SYNC_LIMITS.recommendedFps) {
    checks.push({
      level: 'warning',
      code: 'fps-high',
      message: `The video runs at ${fmt(video.fps)} fps; above ${LIP_SYNC_LIMITS.recommendedFps} fps the lip sync looks worse.`,
    });
  }
  if (!video.hasAudio) {
    checks.push({
      level: 'error',
      code: 'no-audio',
      message: 'The video has no sound track; lip sync needs a video that carries audio.',
    });
  }
  if (audio) {
    const notSound = audio.hasAudio
      ? mediaRefusal('lipsync-audio', readableMedia(audio))
      : 'The audio file has no audio stream.';
    if (notSound) {
      checks.push({ level: 'error', code: 'audio-silent', message: notSound });
    } else if (audio.durationMs !== null && video.durationMs !== null) {
      const gap = Math.abs(audio.durationMs - video.durationMs) / 1000;
      if (gap > LENGTH_TOLERANCE_SECONDS) {
        checks.push({
          level: 'warning',
          code: 'length-mismatch',
          message: `The audio lasts ${fmt(audio.durationMs / 1000)} s and the video ${fmt(video.durationMs / 1000)} s; they should be about the same length.`,
        });
      }
    }
  }
  return checks;
}

export function characterSwapChecks(video: MediaInfo): MediaCheck[] {
  const notVideo = mediaRefusal('swap-video', readableMedia(video));
  if (notVideo) return [{ level: 'error', code: 'not-video', message: notVideo }];
  const seconds = (video.durationMs ?? 0) / 1000;
  if (seconds < CHARACTER_SWAP_LIMITS.minSeconds || seconds > CHARACTER_SWAP_LIMITS.maxSeconds) {
    return [
      {
        level: 'error',
        code: 'duration',
        message: `The video is ${fmt(seconds)} s long; character swap takes 1 to 120 s.`,
      },
    ];
  }
  return [];
}

function fmt(value: number): string {
  return String(Math.round(value * 10) / 10);
}
