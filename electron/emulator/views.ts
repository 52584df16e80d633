import { type WebhookType, RecordStatus } from '../common/api';
import type { Files } from './state/files';
import { recordKindSpec, type JobRecord } from './state/types';

type Row = { _id: string } & Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** Turns stored jobs into the record shapes the interface documents, with URLs only at status 3. */
export class Views {
  constructor(private readonly files: Files) {}

  private result(job: JobRecord): string {
    return job.status === RecordStatus.Completed && job.resultFile ? this.files.resultUrl(job.resultFile) : '';
  }

  audio(job: JobRecord): Row {
    return {
      _id: job._id,
      create_time: job.createdAt,
      uid: job.uid,
      from: num(job.facts.voiceFrom, job.kind === 'clone' ? 4 : 3),
      input_text: str(job.request.input_text),
      rate: str(job.request.rate) || '50%',
      voice_model_id: str(job.facts.voiceModelId),
      url: this.result(job),
      status: job.status,
      __v: 0,
      ...(job.status === RecordStatus.Failed ? { error_reasons: [job.reason] } : {}),
    };
  }

  video(job: JobRecord): Row {
    const base: Row = {
      _id: job._id,
      create_time: job.createdAt,
      uid: job.uid,
      video_id: str(job.facts.videoId) || job._id,
      video_status: job.status,
      video: this.result(job),
      external_video: '',
      video_lock_duration: num(job.facts.lockSeconds),
      deduction_lock_duration: num(job.facts.lockSeconds),
      deduction_duration: job.status === RecordStatus.Completed ? job.cost : 0,
      task_id: str(job.facts.taskId) || job._id,
      webhookUrl: job.webhook,
      ...(job.status === RecordStatus.Failed ? { error_reasons: [job.reason], video_fail_reason: job.reason } : {}),
    };
    if (job.kind === 'lipsync') {
      return {
        ...base,
        input_audio: str(job.request.audio_url),
        target_video: str(job.request.video_url),
        lipsync: true,
      };
    }
    if (job.kind === 'avatar_video') {
      const first = (Array.isArray(job.request.data) ? job.request.data[0] : undefined) as
        Record<string, unknown> | undefined;
      return {
        ...base,
        lipsync: false,
        source_data: { data: job.request.data, webhookUrl: job.webhook, userId: String(job.uid) },
        ratio: str(first?.ratio) || '16:9',
        background: str(first?.background) || '#ffffff',
        offset_x: 0,
        offset_y: 0,
        scale: 1,
      };
    }
    return { ...base, lipsync: false };
  }

  /** Fields the character swap create and info answers share. */
  private characterSwapCommon(job: JobRecord): Row {
    const r = job.request;
    return {
      _id: job._id,
      create_time: job.createdAt,
      uid: job.uid,
      team_id: str(job.facts.teamId),
      video_duration: num(job.facts.durationSeconds),
      webhookUrl: job.webhook,
      file_name: str(job.facts.fileName),
      image_url: str(r.image),
      video_url: str(r.video),
      prompt: str(r.prompt),
      resolution: str(r.resolution) || '720p',
    };
  }

  characterSwapCreated(job: JobRecord): Row {
    return {
      ...this.characterSwapCommon(job),
      status: job.status,
      deduction_credit: job.cost,
      mode: str(job.request.mode) || 'animate',
      model_name: str(job.request.model_name),
    };
  }

  characterSwapInfo(job: JobRecord): Row {
    return {
      ...this.characterSwapCommon(job),
      update_time: job.updatedAt,
      ...(job.status === RecordStatus.Completed ? { video: this.result(job) } : {}),
      deduction_credit: job.status === RecordStatus.Failed ? 0 : job.cost,
      video_status: job.status,
      ...(job.status === RecordStatus.Failed ? { faceswap_fail_reason: job.reason } : {}),
    };
  }

  avatar(job: JobRecord): Row {
    const r = job.request;
    return {
      _id: job._id,
      disabled: false,
      uid: job.uid,
      type: num(r.type, 1),
      from: 3,
      status: job.status,
      sort: 0,
      create_time: job.createdAt,
      name: str(r.name) || str(r.avatar_id),
      avatar_id: str(r.avatar_id),
      url: str(r.url),
      modify_url: '',
      gender: '',
      thumbnailUrl: this.result(job),
      crop_arr: [],
      ...(job.status === RecordStatus.Failed ? { error_reasons: [job.reason] } : {}),
    };
  }

  /** The record as its info operation answers (also the callback's `data`). */
  info(job: JobRecord): Row {
    return this[recordKindSpec(job.kind).record](job);
  }

  /** The service's webhook `type` for a job (see WEBHOOK_TYPES for the kinds its docs do not name). */
  webhookType(job: JobRecord): WebhookType {
    return recordKindSpec(job.kind).webhookType;
  }
}
