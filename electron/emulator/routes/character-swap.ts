import type { FastifyInstance } from 'fastify';
import { CHARACTER_SWAP_LIMITS, type CharacterSwapResolution, Code } from '../../common/api';
import { describeFormat } from '../../common/composition/media-format';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { createJob } from '../jobs/create';
import { defineEndpoint } from '../server';
import { RECORD_KINDS } from '../state/types';
import { fetchAndProbe } from './video';

export function characterSwapRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'characterSwapCreate', async (body, caller) => {
    const swapModels = ctx.catalogue.models.filter((m) => m.type === 2101);
    const model = body.model_name === undefined ? swapModels[0] : swapModels.find((m) => m.value === body.model_name);
    if (!model)
      throw new ApiError(
        Code.ParameterError,
        `model_name "${body.model_name}" is not a character swap model (type 2101) of the model list`,
      );
    const resolution: CharacterSwapResolution = body.resolution ?? '720p';
    const unit = model.resolutionList.find((r) => r.value === resolution);
    if (!unit)
      throw new ApiError(Code.ParameterError, `resolution ${resolution} is not offered by model ${model.value}`);

    const image = await fetchAndProbe(ctx, body.image, 'image', Code.ParameterError);
    if (image.info.kind !== 'image' || !['png', 'jpeg'].includes(image.info.format)) {
      throw new ApiError(
        Code.ParameterError,
        `image must be a PNG or JPEG picture (got ${describeFormat(image.info.format)})`,
      );
    }
    const video = await fetchAndProbe(ctx, body.video, 'video', Code.VideoParsingError);
    if (video.info.kind !== 'video')
      throw new ApiError(
        Code.VideoParsingError,
        `video must be a video (MP4), got ${describeFormat(video.info.format)}`,
      );
    if (video.info.format !== 'mp4')
      throw new ApiError(
        Code.UnsupportedVideoFormat,
        `video must be an MP4 file (got ${describeFormat(video.info.format)})`,
      );
    const detected = (video.info.durationMs ?? 0) / 1000;
    const seconds = body.duration ?? detected;
    if (seconds < CHARACTER_SWAP_LIMITS.minSeconds || seconds > CHARACTER_SWAP_LIMITS.maxSeconds) {
      throw new ApiError(
        Code.ParameterError,
        `duration: the video lasts ${detected.toFixed(1)} s; character swap takes 1 to 120 seconds (send duration to cut it)`,
      );
    }
    // Per started 5-second unit at the model's unit_credit (480p 5, 720p 10, 1080p 15 for the sandbox model).
    const cost = Math.ceil(seconds / 5) * unit.unit_credit;
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.characterSwapCreate.kind,
      request: { ...body, resolution, mode: body.mode ?? 'animate', model_name: model.value },
      webhook: body.webhookurl,
      cost,
      facts: {
        durationSeconds: seconds,
        teamId: `team_${caller.account.uid}`,
        fileName: `${decodeURIComponent(new URL(body.video).pathname.split('/').pop() || 'video.mp4')}`,
      },
    });
    return ctx.views.characterSwapCreated(job);
  });
}
