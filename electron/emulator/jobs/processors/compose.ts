import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AvatarVideoBody, type TalkingAvatarBody, RecordStatus } from '../../../common/api';
import {
  buildFfmpegArgs,
  planFromAvatarVideoBody,
  planFromTalkingAvatarBody,
  type BodyPlanOptions,
  type InputRequest,
  type MediaSize,
  type RenderPlan,
  type ResolvedInput,
} from '../../../common/composition';
import { lookupVoice } from '../../routes/audio';
import { avatarClipFile } from '../../catalogue/catalogue';
import type { EmulatorContext } from '../../context';
import { speak } from '../../media/speech';
import type { JobRecord } from '../../state/types';
import type { ProcessContext, ProcessResult } from '../engine';

type Fetched = { path: string; still: boolean; seconds: number; size?: MediaSize };

/**
 * Avatar video and talking avatar are rendered by the shared compositor (electron/common/composition):
 * every media is fetched (or mapped, for the sandbox's own URLs) and probed first, speech is
 * synthesised, then the plan is made from the request body and rendered by one ffmpeg command.
 */
class InputCache {
  private readonly byUrl = new Map<string, Fetched>();
  private readonly byAvatar = new Map<string, Fetched>();
  private readonly bySpeech = new Map<string, Fetched>();

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly job: JobRecord,
    private readonly p: ProcessContext,
  ) {}

  private async media(path: string, label: string): Promise<Fetched> {
    let info;
    try {
      info = await this.ctx.tools.probe(path, this.p.signal);
    } catch (error) {
      throw new Error(`${label} is not a readable media file (${(error as Error).message})`);
    }
    const size = info.width && info.height ? { width: info.width, height: info.height } : undefined;
    return { path, still: info.kind === 'image', seconds: (info.durationMs ?? 0) / 1000, size };
  }

  async url(url: string, label: string): Promise<void> {
    if (this.byUrl.has(url) || /^#[0-9a-fA-F]{6}$/.test(url) || url === '') return;
    this.byUrl.set(url, await this.media(await this.ctx.fetcher.toFile(url, label, { signal: this.p.signal }), label));
  }

  async avatar(avatarId: string, label: string): Promise<void> {
    if (this.byAvatar.has(avatarId)) return;
    const official = this.ctx.catalogue.avatarById(avatarId);
    if (official) {
      await this.ctx.catalogue.ensure();
      this.byAvatar.set(
        avatarId,
        await this.media(join(this.ctx.files.catalogueDir, avatarClipFile(official.avatar_id)), label),
      );
      return;
    }
    const own = Object.values(this.ctx.store.state.jobs).find(
      (j) => j.kind === 'avatar' && j.uid === this.job.uid && j.request.avatar_id === avatarId,
    );
    if (!own || own.status !== RecordStatus.Completed)
      throw new Error(`${label}: avatar_id "${avatarId}" does not exist or is not ready`);
    const url = String(own.request.url);
    await this.url(url, label);
    this.byAvatar.set(avatarId, this.byUrl.get(url) as Fetched);
  }

  async speech(text: string, voiceId: string, label: string): Promise<void> {
    const key = `${voiceId}\u0000${text}`;
    if (this.bySpeech.has(key)) return;
    const voice = lookupVoice(this.ctx, { account: this.ctx.accounts.account, credential: '' }, voiceId);
    if (!voice) throw new Error(`${label}: voice_id "${voiceId}" is not in the voice list`);
    const out = join(this.p.workDir, `speech-${this.bySpeech.size}.mp3`);
    await speak(this.ctx.tools, text, voice, 0.5, out, this.p.workDir, this.p.signal);
    this.bySpeech.set(key, await this.media(out, label));
  }

  /** The synchronous resolver the compositor calls while planning. */
  resolve = (r: InputRequest): ResolvedInput => {
    const hit =
      (r.url ? this.byUrl.get(r.url) : undefined) ??
      (r.avatarId ? this.byAvatar.get(r.avatarId) : undefined) ??
      (r.text ? this.bySpeech.get(`${r.text.voiceId}\u0000${r.text.text}`) : undefined);
    return hit ? { path: hit.path, still: hit.still } : null;
  };

  /** How this sandbox reads scale and offset (its --placement and --scale), with each media's own size. */
  planOptions(): BodyPlanOptions {
    return {
      placement: { anchor: this.ctx.options.placement, scale: this.ctx.options.scale },
      mediaSize: (m) =>
        ((m.url ? this.byUrl.get(m.url) : undefined) ?? (m.avatarId ? this.byAvatar.get(m.avatarId) : undefined))?.size,
    };
  }

  /** Length of the longest audio the body speaks (a talking avatar lasts as long as its speech). */
  longestAudio(elements: TalkingAvatarBody['elements']): number {
    let longest = 0;
    for (const e of elements) {
      if (e.type !== 'audio') continue;
      const hit =
        (e.url ? this.byUrl.get(e.url) : undefined) ??
        (e.input_text && e.voice_id ? this.bySpeech.get(`${e.voice_id}\u0000${e.input_text}`) : undefined);
      longest = Math.max(longest, hit?.seconds ?? 0);
    }
    return longest;
  }
}

async function render(
  ctx: EmulatorContext,
  job: JobRecord,
  plan: RenderPlan,
  p: ProcessContext,
): Promise<ProcessResult> {
  const file = `${job._id}.mp4`;
  const command = buildFfmpegArgs(plan, { outputPath: ctx.files.resultPath(file), quality: 'draft' });
  const fixture = ctx.options.videoFixture;
  if (fixture) await copyFile(fixture, ctx.files.resultPath(file));
  else await ctx.tools.runFfmpegArgs(command.args, p.signal);
  return {
    file,
    facts: {
      width: command.width,
      height: command.height,
      durationSeconds: command.durationMs / 1000,
      notes: plan.notes.join('; '),
    },
  };
}

export async function processAvatarVideo(
  ctx: EmulatorContext,
  job: JobRecord,
  p: ProcessContext,
): Promise<ProcessResult> {
  const body = job.request as unknown as AvatarVideoBody;
  const cache = new InputCache(ctx, job, p);
  for (const [s, scene] of body.data.entries()) {
    if (scene.voice?.voice_url) await cache.url(scene.voice.voice_url, `data[${s}].voice.voice_url`);
    for (const [i, e] of scene.elements.entries()) {
      const label = `data[${s}].elements[${i}]`;
      if (e.type === 'avatar' && e.avatar_id && !e.url) await cache.avatar(e.avatar_id, label);
      else if (e.url) await cache.url(e.url, `${label}.url`);
    }
  }
  return render(ctx, job, planFromAvatarVideoBody(body, cache.resolve, cache.planOptions()), p);
}

export async function processTalkingAvatar(
  ctx: EmulatorContext,
  job: JobRecord,
  p: ProcessContext,
): Promise<ProcessResult> {
  const body = job.request as unknown as TalkingAvatarBody;
  const cache = new InputCache(ctx, job, p);
  for (const [i, e] of body.elements.entries()) {
    const label = `elements[${i}]`;
    if (e.type === 'audio') {
      if (e.url) await cache.url(e.url, `${label}.url`);
      else if (e.input_text && e.voice_id) await cache.speech(e.input_text, e.voice_id, label);
    } else if (e.type === 'avatar' && e.avatar_id && (body.avatar_from === 2 || !e.url))
      await cache.avatar(e.avatar_id, label);
    else if (e.url) await cache.url(e.url, `${label}.url`);
  }
  const seconds = cache.longestAudio(body.elements);
  if (seconds <= 0) throw new Error('the audio element has no sound to speak');
  return render(
    ctx,
    job,
    planFromTalkingAvatarBody(body, cache.resolve, { ...cache.planOptions(), durationMs: seconds * 1000 }),
    p,
  );
}
