import type { FastifyInstance } from 'fastify';
import { TALKING_AVATAR_TEXT_LIMITS, Code, RecordStatus } from '../../common/api';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { createJob } from '../jobs/create';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';
import { RECORD_KINDS } from '../state/types';
import type { Caller } from '../state/accounts';
import { findAvatar } from './avatar';
import { lookupVoice } from './audio';

function requireAvatar(ctx: EmulatorContext, caller: Caller, avatarId: string, field: string): void {
  const avatar = findAvatar(ctx, caller, (a) => a.avatar_id === avatarId || a._id === avatarId);
  if (!avatar) throw new ApiError(Code.ContentNotFound, `${field}: avatar_id "${avatarId}" does not exist`);
  // An uploaded avatar can be used only once its status is 3.
  if (avatar.status !== RecordStatus.Completed)
    throw new ApiError(
      Code.ContentNotOperable,
      `${field}: avatar_id "${avatarId}" is not ready (status ${String(avatar.status)})`,
    );
}

function requireVoice(ctx: EmulatorContext, caller: Caller, voiceId: string, field: string): void {
  if (!lookupVoice(ctx, caller, voiceId))
    throw new ApiError(Code.ContentNotFound, `${field}: voice_id "${voiceId}" is not in the voice list`);
}

export function composeRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'avatarVideoCreate', async (body, caller) => {
    body.data.forEach((scene, s) => {
      if (scene.voice?.voice_id && !scene.voice.voice_url)
        requireVoice(ctx, caller, scene.voice.voice_id, `data[${s}].voice`);
      scene.elements.forEach((e, i) => {
        if (e.type === 'avatar' && !e.url) {
          if (!e.avatar_id)
            throw new ApiError(
              Code.ParameterError,
              `data[${s}].elements[${i}]: an avatar element needs avatar_id or url`,
            );
          requireAvatar(ctx, caller, e.avatar_id, `data[${s}].elements[${i}]`);
        }
        if ((e.type === 'image' || e.type === 'video') && !e.url)
          throw new ApiError(Code.ParameterError, `data[${s}].elements[${i}].url is required for ${e.type} elements`);
      });
    });
    const seconds =
      body.duration !== undefined
        ? body.duration / 1000
        : body.data.reduce((sum, d) => sum + (d.duration ?? 5000), 0) / 1000;
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.avatarVideoCreate.kind,
      request: { ...body },
      webhook: body.webhookUrl,
      cost: FLAT_PRICES.avatarVideoCreate,
      facts: { lockSeconds: seconds },
    });
    return ctx.views.video(job);
  });

  defineEndpoint(app, ctx, 'talkingAvatarCreate', async (body, caller) => {
    const chars = body.elements.reduce(
      (n, e) => n + (e.type === 'audio' && !e.url ? (e.input_text?.length ?? 0) : 0),
      0,
    );
    if (chars > TALKING_AVATAR_TEXT_LIMITS.pro) {
      throw new ApiError(
        Code.ParameterError,
        `elements[].input_text: ${chars} characters; the sandbox plan (Pro) allows ${TALKING_AVATAR_TEXT_LIMITS.pro} per request`,
      );
    }
    body.elements.forEach((e, i) => {
      if (e.type === 'avatar' && !e.url && e.avatar_id) requireAvatar(ctx, caller, e.avatar_id, `elements[${i}]`);
      if (e.type === 'audio' && !e.url && e.voice_id) requireVoice(ctx, caller, e.voice_id, `elements[${i}]`);
    });
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.talkingAvatarCreate.kind,
      request: { ...body },
      webhook: body.webhookUrl,
      cost: FLAT_PRICES.talkingAvatarCreate,
    });
    const v = ctx.views.video(job);
    return {
      _id: v._id,
      uid: v.uid,
      video_id: v.video_id,
      task_id: v.task_id,
      video_status: v.video_status,
      video: v.video,
      create_time: v.create_time,
    };
  });
}
