import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { LIP_SYNC_LIMITS, Code, type ApiCode } from '../../common/api';
import type { MediaInfo } from '../../common/composition/media-info';
import type { EmulatorContext } from '../context';
import { ApiError, MediaError } from '../errors';
import { createJob, findJob } from '../jobs/create';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';
import { RECORD_KINDS, kindsReadBy } from '../state/types';

/** Downloads (or maps) a URL and probes it; a file ffprobe cannot read becomes `unreadableCode`. */
export async function fetchAndProbe(
  ctx: EmulatorContext,
  url: string,
  field: string,
  unreadableCode: ApiCode,
  maxBytes?: number,
): Promise<{ path: string; info: MediaInfo }> {
  const path = await ctx.fetcher.toFile(url, field, {
    maxBytes,
    tooLargeCode: maxBytes ? Code.VideoSizeExceeded : Code.ParameterError,
  });
  try {
    return { path, info: await ctx.tools.probe(path) };
  } catch (error) {
    throw new MediaError(unreadableCode, `${field} is not a readable media file (${(error as Error).message})`);
  }
}

export function videoRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'lipSync', async (body, caller) => {
    const video = await fetchAndProbe(
      ctx,
      body.video_url,
      'video_url',
      Code.VideoParsingError,
      LIP_SYNC_LIMITS.maxBytes,
    );
    if (!video.info.hasVideo || video.info.kind !== 'video')
      throw new ApiError(Code.VideoParsingError, 'video_url must be a video');
    if (statSync(video.path).size > LIP_SYNC_LIMITS.maxBytes)
      throw new ApiError(Code.VideoSizeExceeded, 'video_url is larger than 300 MB');
    const seconds = (video.info.durationMs ?? 0) / 1000;
    if (seconds > LIP_SYNC_LIMITS.maxSeconds)
      throw new ApiError(
        Code.VideoDurationExceeded,
        `video_url lasts ${seconds.toFixed(1)} s; lip sync takes at most 60 s`,
      );
    if ((video.info.fps ?? 0) > LIP_SYNC_LIMITS.maxFps)
      throw new ApiError(
        Code.VideoFpsExceeded,
        `video_url runs at ${video.info.fps} fps; lip sync takes at most 60 fps`,
      );
    const audio = await fetchAndProbe(ctx, body.audio_url, 'audio_url', Code.AudioProcessingError);
    if (!audio.info.hasAudio) throw new ApiError(Code.AudioProcessingError, 'audio_url has no audio stream');
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.lipSync.kind,
      request: { ...body },
      webhook: body.webhookUrl,
      cost: FLAT_PRICES.lipSync,
      facts: { lockSeconds: seconds, durationSeconds: seconds },
    });
    return ctx.views.video(job);
  });

  defineEndpoint(app, ctx, 'videoInfo', async (query, caller) => {
    const job = findJob(ctx, caller, query.video_model_id, kindsReadBy('videoInfo'));
    if (!job) throw new ApiError(Code.ContentNotFound, `video_model_id "${query.video_model_id}" does not exist`);
    return ctx.views.info(job);
  });
}
