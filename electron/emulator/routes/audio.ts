import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { createJob, findJob } from '../jobs/create';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';
import { RECORD_KINDS, kindsReadBy } from '../state/types';
import type { Caller } from '../state/accounts';
import { voicePreviewFile } from '../catalogue/catalogue';
import { Code, RecordStatus } from '../../common/api';

/** A voice the caller may speak with: official, or one cloned by this account. */
export function lookupVoice(ctx: EmulatorContext, caller: Caller, voiceId: string) {
  const official = ctx.catalogue.voice(voiceId);
  if (official) return { from: 3, modelId: official._id, espeak: official.espeak, pitch: official.pitch };
  const own = Object.values(ctx.store.state.voices).find((v) => v.voice_id === voiceId && v.uid === caller.account.uid);
  if (own) return { from: 4, modelId: own._id, espeak: own.espeakVoice, pitch: own.pitch };
  return undefined;
}

export function audioRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'voiceList', async (query, caller) => {
    const official = ctx.catalogue.voices.map((v, i) => ({
      _id: v._id,
      create_time: 1710000000000 + i,
      uid: 0,
      from: 3,
      voice_id: v.voice_id,
      gender: v.gender,
      accent: v.accent,
      name: v.name,
      description: v.description,
      useCase: v.useCase,
      type: 1,
      preview: ctx.files.catalogueUrl(voicePreviewFile(v.voice_id)),
      __v: 0,
    }));
    const own = Object.values(ctx.store.state.voices)
      .filter((v) => v.uid === caller.account.uid)
      .map((v) => {
        const job = ctx.store.state.jobs[v.previewJob];
        return {
          _id: v._id,
          create_time: v.createdAt,
          uid: v.uid,
          from: 4,
          voice_id: v.voice_id,
          gender: v.gender,
          accent: 'Cloned',
          name: v.name,
          description: `Cloned from a sample (pitch ${v.pitch})`,
          useCase: 'Cloned voice',
          type: 2,
          preview: job?.status === RecordStatus.Completed ? ctx.files.resultUrl(job.resultFile) : '',
          __v: 0,
        };
      });
    const all = [...official, ...own];
    return query.from === undefined ? all : all.filter((v) => v.from === query.from);
  });

  defineEndpoint(app, ctx, 'audioCreate', async (body, caller) => {
    const voice = lookupVoice(ctx, caller, body.voice_id);
    if (!voice) throw new ApiError(Code.ContentNotFound, `voice_id "${body.voice_id}" is not in the voice list`);
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.audioCreate.kind,
      request: { ...body, rate: body.rate ?? '50%' },
      webhook: body.webhookUrl,
      cost: FLAT_PRICES.audioCreate,
      facts: { voiceFrom: voice.from, voiceModelId: voice.modelId },
    });
    return ctx.views.audio(job);
  });

  defineEndpoint(app, ctx, 'audioClone', async (body, caller) => {
    let facts: Record<string, number | string> = { voiceFrom: 4 };
    if (body.voice_url === undefined && body.voice_id !== undefined) {
      const voice = lookupVoice(ctx, caller, body.voice_id);
      if (!voice) throw new ApiError(Code.ContentNotFound, `voice_id "${body.voice_id}" is not in the voice list`);
      facts = { voiceFrom: voice.from, voiceModelId: voice.modelId };
    }
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.audioClone.kind,
      request: { ...body },
      webhook: body.webhookUrl,
      cost: FLAT_PRICES.audioClone,
      facts,
    });
    return ctx.views.audio(job);
  });

  defineEndpoint(app, ctx, 'audioInfo', async (query, caller) => {
    const job = findJob(ctx, caller, query.audio_model_id, kindsReadBy('audioInfo'));
    if (!job) throw new ApiError(Code.ContentNotFound, `audio_model_id "${query.audio_model_id}" does not exist`);
    return ctx.views.audio(job);
  });
}
