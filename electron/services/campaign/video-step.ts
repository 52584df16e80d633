import { campaignFormats } from '../../common/campaign/campaign-formats';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { RowStepContext } from '../rows/engine/row-kind';
import type { PlacementConvention } from '../../common/composition/placement';
import type { AvatarLinks } from '../../common/composition/avatar-links';
import type { Project } from '../../common/composition/document';
import { latestStepJob, type RowStep } from './row-project';
import { fitVoices, formatKeyOf, stepSubmission, videoProblem, videoRequest, type VoiceMeasure } from './row-steps';

/** What the step is given by its host (CampaignRowsDeps has these). */
export interface VideoStepDeps {
  prepare(body: Record<string, unknown>, project: Project): Promise<Record<string, unknown>>;
  voiceLength?: VoiceMeasure;
  placement?(): Promise<PlacementConvention | undefined>;
  avatars?(): Promise<AvatarLinks | undefined>;
}

type Made = NonNullable<CampaignRowRecord['formatResults']>;

/**
 * A row's video step: one paid create per format of the template (one for a template of one format),
 * all sent before any is waited for, so a row in three formats takes about as long as one. Each format's
 * result is kept on the row as it ends, so a format that fails leaves the others' results to the retry
 * (which pays only for what is missing); once every format is made the row goes on to its save.
 */
export async function videoStep(
  deps: VideoStepDeps,
  { run: record, row, jobs, paid, set, fail }: RowStepContext<CampaignRowRecord, CampaignRecord>,
): Promise<void> {
  const formats = campaignFormats(record.template.project);
  const several = formats.length > 1;
  const made: Made = { ...row.formatResults };
  const steps = formats
    .filter((f) => !several || !made[formatKeyOf(f)])
    .map((format) => {
      const at: RowStep = {
        row: row.row,
        step: 'video',
        take: row.take,
        ...(format.key ? { format: format.key } : {}),
      };
      return { format, at, known: latestStepJob(jobs(), record.id, at) };
    });
  let fitted = row;
  if (steps.every((s) => !s.known) && Object.keys(made).length === 0) {
    // Before the video is paid for: every voice's real length, a fixed scene it overruns holds the row.
    const fit = await fitVoices(record, row, deps.voiceLength ?? null).catch((error: Error) => error);
    if (fit instanceof Error) return fail(fit.message);
    if (fit.held.length > 0)
      return set((r) => ({ ...r, voiceLengths: fit.lengths, state: 'held', problems: fit.held }));
    fitted = { ...row, voiceLengths: fit.lengths };
    if (Object.keys(fit.lengths).length > 0) await set((r) => ({ ...r, voiceLengths: fit.lengths }));
  }
  const sending = steps.some((s) => !s.known);
  const placement = sending ? await deps.placement?.() : undefined;
  // The avatars of the connection that sends the row (a worker's own), not of the one the template was made on.
  const avatars = sending ? await deps.avatars?.() : undefined;
  let waiting = false;
  let failed: string | null = null;
  for (const { format, at, known } of steps) {
    const job = await paid(known, async () =>
      stepSubmission(
        record.id,
        at,
        await videoRequest(
          record,
          fitted,
          { placement, avatars },
          (body, project) => deps.prepare(body, project),
          format,
        ),
      ),
    );
    if (job === 'waiting') waiting = true;
    else if (job.phase !== 'completed' || !job.resultUrl)
      failed ??= several ? `the ${format.tag} video: ${videoProblem(job)}` : videoProblem(job);
    else made[formatKeyOf(format)] = { resultUrl: job.resultUrl, expiresAt: job.expiresAt };
  }
  const changed = several && Object.keys(made).length !== Object.keys(row.formatResults ?? {}).length;
  if (changed) await set((r) => ({ ...r, formatResults: made }));
  // One format failed: the row fails once the others sent are at their end (none is left unfollowed).
  if (failed && !waiting) return fail(failed);
  if (waiting || failed) return;
  const main = made[formatKeyOf(formats[0])];
  const expiries = Object.values(made)
    .map((m) => m.expiresAt)
    .filter((e): e is number => e !== null);
  // The earliest link's end: a save or retry that trusts the links trusts all of them.
  const expiresAt = expiries.length > 0 ? Math.min(...expiries) : null;
  return set((r) => ({ ...r, resultUrl: main.resultUrl, expiresAt, state: 'download' }));
}
