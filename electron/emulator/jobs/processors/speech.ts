import { copyFile } from 'node:fs/promises';
import { parseRate } from '../../../common/api';
import { lookupVoice } from '../../routes/audio';
import type { EmulatorContext } from '../../context';
import { measurePitch, speak, voiceFromPitch, type SpeechVoice } from '../../media/speech';
import type { JobRecord } from '../../state/types';
import type { ProcessContext, ProcessResult } from '../engine';

const text = (job: JobRecord) => String(job.request.input_text ?? '');
const rate = (job: JobRecord) => parseRate(String(job.request.rate ?? '50%'));

async function voiceOf(ctx: EmulatorContext, job: JobRecord): Promise<SpeechVoice> {
  const id = String(job.request.voice_id ?? '');
  const voice = lookupVoice(ctx, { account: ctx.accounts.account, credential: '' }, id);
  if (!voice) throw new Error(`voice_id "${id}" no longer exists`);
  return { espeak: voice.espeak, pitch: voice.pitch };
}

const fixtureProbes = new Map<string, ReturnType<EmulatorContext['tools']['probe']>>();
const probeOnce = (ctx: EmulatorContext, path: string) => {
  if (!fixtureProbes.has(path)) fixtureProbes.set(path, ctx.tools.probe(path));
  return fixtureProbes.get(path) as ReturnType<EmulatorContext['tools']['probe']>;
};

/** TTS: the text spoken by the chosen voice at the chosen rate. */
export async function processTts(ctx: EmulatorContext, job: JobRecord, p: ProcessContext): Promise<ProcessResult> {
  const file = `${job._id}.mp3`;
  const fixture = ctx.options.speechFixture;
  if (fixture) await copyFile(fixture, ctx.files.resultPath(file));
  else
    await speak(
      ctx.tools,
      text(job),
      await voiceOf(ctx, job),
      rate(job),
      ctx.files.resultPath(file),
      p.workDir,
      p.signal,
    );
  if (fixture) await ctx.tools.copied(ctx.files.resultPath(file), probeOnce(ctx, fixture));
  const info = await ctx.tools.probe(ctx.files.resultPath(file));
  return { file, facts: { durationSeconds: (info.durationMs ?? 0) / 1000 } };
}

/**
 * Voice clone: the pitch of the sample decides the voice (gender variant and pitch), which then
 * speaks the text; the derived voice is added to the caller's voices (from 4).
 */
export async function processClone(ctx: EmulatorContext, job: JobRecord, p: ProcessContext): Promise<ProcessResult> {
  const file = `${job._id}.mp3`;
  if (typeof job.request.voice_url !== 'string') {
    await speak(
      ctx.tools,
      text(job),
      await voiceOf(ctx, job),
      rate(job),
      ctx.files.resultPath(file),
      p.workDir,
      p.signal,
    );
    return { file };
  }
  const sample = await ctx.fetcher.toFile(job.request.voice_url, 'voice_url', { signal: p.signal });
  const f0 = await measurePitch(ctx.tools, sample, p.workDir, p.signal);
  const voice = voiceFromPitch(f0);
  await speak(ctx.tools, text(job), voice, rate(job), ctx.files.resultPath(file), p.workDir, p.signal);
  const voiceRecordId = ctx.store.newId(ctx.options.now());
  ctx.store.state.voices[voiceRecordId] = {
    _id: voiceRecordId,
    uid: job.uid,
    voice_id: `clone_${job._id}`,
    name: `Cloned voice ${job._id.slice(-6)}`,
    gender: voice.gender === 'female' ? 'Female' : 'Male',
    createdAt: ctx.options.now(),
    espeakVoice: voice.espeak,
    pitch: voice.pitch,
    previewJob: job._id,
  };
  ctx.store.changed();
  return {
    file,
    facts: {
      measuredPitchHz: Math.round(f0),
      espeakPitch: voice.pitch,
      espeakVoice: voice.espeak,
      voiceModelId: voiceRecordId,
      clonedVoiceId: `clone_${job._id}`,
    },
  };
}
