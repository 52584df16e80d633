import { JOB_KIND_LABELS, type JobKind, type JobRecord } from '../../common/bridge/jobs';
import { JOB_KIND_REGISTRY, RESULT_EXTENSIONS } from '../../common/jobs/kinds';
import { nameDate, renderTemplate, safeRelativeName, type NameFields } from '../../common/file-names';

/** A finished job's result as something to download, or why there is none. */
export type JobFile =
  { ok: true; jobId: string; url: string; relativeName: string } | { ok: false; jobId: string; reason: string };

export { isAudioKind } from '../../common/jobs/kinds';

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The row number a job has of its own: a batch's or a campaign's row, counted from 1 as their files are. */
function ownRow(job: Pick<JobRecord, 'purpose'>): number | null {
  const purpose = job.purpose;
  return purpose?.type === 'batch-row' || purpose?.type === 'campaign-row' ? purpose.row + 1 : null;
}

/**
 * The template fields a job offers. Scene comes from who asked (a scene voiceover). `{row}` is only a
 * batch or campaign row's own number: a job that is no row has none, so `{row|id}` names it by its id
 * rather than by its place in a selection, which gave it a number some batch row already had.
 */
export function jobNameFields(
  job: JobRecord,
  context: { projectName?: string | null; scene?: string | null } = {},
): NameFields {
  const request = (job.request ?? {}) as Record<string, unknown>;
  return {
    project: context.projectName ?? null,
    scene: context.scene ?? null,
    kind: JOB_KIND_LABELS[job.kind],
    voice: str(request.voice_name) ?? str(request.voice_id),
    text: str(request.input_text) ?? str(request.text) ?? str(request.name),
    date: nameDate(job.finishedAt ?? job.createdAt),
    id: job.remoteId ?? job.id,
    row: ownRow(job),
  };
}

function extensionOf(url: string, kind: JobKind): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    const match = /\.([a-z0-9]{2,5})$/i.exec(last);
    if (match) return match[1].toLowerCase();
  } catch {
    // not a URL we can read: the kind decides
  }
  return RESULT_EXTENSIONS[JOB_KIND_REGISTRY[kind].result.media];
}

/** Why a job's result cannot be downloaded now, or null when it can. */
export function unavailableReason(
  job: Pick<JobRecord, 'phase' | 'resultUrl' | 'expiresAt'>,
  now: number,
): string | null {
  if (job.phase === 'failed') return 'The job failed; there is no result to download.';
  if (job.phase !== 'completed') return 'The job has not finished yet.';
  if (!job.resultUrl) return 'The service reported no result file for this job.';
  if (job.expiresAt !== null && job.expiresAt <= now) {
    return `The result expired on ${new Date(job.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC: the service keeps results for 7 days.`;
  }
  return null;
}

export function jobFile(
  job: JobRecord,
  template: string,
  now: number,
  context: Parameters<typeof jobNameFields>[1] = {},
): JobFile {
  const reason = unavailableReason(job, now);
  if (reason) return { ok: false, jobId: job.id, reason };
  const url = job.resultUrl as string;
  const rendered = renderTemplate(template, jobNameFields(job, context));
  return { ok: true, jobId: job.id, url, relativeName: safeRelativeName(rendered, extensionOf(url, job.kind)) };
}
