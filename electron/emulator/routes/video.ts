import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { LIP_SYNC_LIMITS } from '../../common/api';
import type { MediaInfo } from '../../common/composition/media-info';
import type { EmulatorContext } from '../context';
import { ApiError, MediaError } from '../errors';
import { createJob, findJob } from '../jobs/create';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';

/** Downloads (or maps) a URL and probes it; a file ffprobe cannot read becomes `unreadableCode`. */
export async function fetchAndProbe(
  ctx: EmulatorContext, url: string, field: string, unreadableCode: 1003 | 1110 | 1208 | 1105, maxBytes?: number,
): Promise<{ path: string; info: MediaInfo }> {
  const path = await ctx.fetcher.toFile(url, field, { maxBytes, tooLargeCode: maxBytes ? 1207 : 1003 });
  try {
    return { path, info: await ctx.tools.probe(path) };
  } catch (error) {
    throw new MediaError(unreadableCode, `${field} is not a readable media file (${(error as Error).message})`);
  }
}

export function videoRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'lipSync', async (body, caller) => {
    const video = await fetchAndProbe(ctx, body.video_url, 'video_url', 1208, LIP_SYNC_LIMITS.maxBytes);
    if (!video.info.hasVideo || video.info.kind !== 'video') throw new ApiError(1208, 'video_url must be a video');
    if (statSync(video.path).size > LIP_SYNC_LIMITS.maxBytes) throw new ApiError(1207, 'video_url is larger than 300 MB');
    const seconds = (video.info.durationMs ?? 0) / 1000;
    if (seconds > LIP_SYNC_LIMITS.maxSeconds) throw new ApiError(1204, `video_url lasts ${seconds.toFixed(1)} s; lip sync takes at most 60 s`);
    if ((video.info.fps ?? 0) > LIP_SYNC_LIMITS.maxFps) throw new ApiError(1210, `video_url runs at ${video.info.fps} fps; lip sync takes at most 60 fps`);
    const audio = await fetchAndProbe(ctx, body.audio_url, 'audio_url', 1110);
    if (!audio.info.hasAudio) throw new ApiError(1110, 'audio_url has no audio stream');
    const job = createJob(ctx, caller, {
      kind: 'lipsync', request: { ...body }, webhook: body.webhookUrl, cost: FLAT_PRICES.lipsync,
      facts: { lockSeconds: seconds, durationSeconds: seconds },
    });
    return ctx.views.video(job);
  });

  defineEndpoint(app, ctx, 'videoInfo', async (query, caller) => {
    const job = findJob(ctx, caller, query.video_model_id, ['lipsync', 'avatar_video', 'talking_avatar', 'character_swap']);
    if (!job) throw new ApiError(1008, `video_model_id "${query.video_model_id}" does not exist`);
    return ctx.views.info(job);
  });
}
