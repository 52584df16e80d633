import type { JobSubmission, JobView } from '../../common/bridge/jobs';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { Project, Scene } from '../../common/composition/document';
import { exportBody } from '../../common/composition/export-body';
import type { AvatarLinks } from '../../common/composition/avatar-links';
import type { PlacementConvention } from '../../common/composition/placement';
import { rowProject, sceneName, type RowStep } from './row-project';
import type { RowStepPrice } from '../rows/engine/row-kind';
import { voiceAudioUrl } from '../../common/composition/rules';
import { overrunText, voiceOverruns } from '../../common/composition/scene-length';
import { HOW_TO_FIT_VOICE } from '../../common/composition/voice-follow';
import { campaignFormats, type CampaignFormat } from '../../common/campaign/campaign-formats';
import { musicPlanFor } from '../../common/composition/music-track';
import { sceneCuts } from '../../common/composition/scene-parts';

// What each step of a row's chain sends, and how a step that ended badly is told to the user. The
// runner decides when a step is sent (and never twice); these only say what is in it.

export type StepRequest = Pick<JobSubmission, 'kind' | 'body'>;

/** A row's first step: its voiceovers when an avatar video has scenes not voiced yet, else its video. */
export function firstStep(record: CampaignRecord, row: CampaignRowRecord): 'voiceover' | 'video' {
  const project = rowProject(record, row);
  return record.target === 'avatar-video' && project.scenes.some((s) => s.voice?.kind === 'tts' && !s.voice.audioUrl)
    ? 'voiceover'
    : 'video';
}

/**
 * The paid steps a row has still to make from where it stands, for the budget to reserve before the row
 * starts: each voiced scene still without its voiceover, then the video (its body is not made yet; the
 * price of a video does not depend on it). A row past its video has nothing left to pay for.
 */
export function rowStepPrices(record: CampaignRecord, row: CampaignRowRecord): RowStepPrice[] {
  const state = row.state === 'pending' ? firstStep(record, row) : row.state;
  if (state !== 'voiceover' && state !== 'video') return [];
  const voiceovers =
    state === 'voiceover'
      ? rowProject(record, row)
          .scenes.filter((scene) => scene.voice?.kind === 'tts' && !scene.voice.audioUrl && !row.voiceovers[scene.id])
          .map((scene) => voiceoverRequest(scene) as RowStepPrice)
      : [];
  const videos = rowFormatsToMake(record, row).map((): RowStepPrice => ({ kind: record.target, body: {} }));
  return [...voiceovers, ...videos];
}

/**
 * The template's formats whose video the row has still to make: every one, less those a failed take
 * made before another format failed (kept while their links work: a retry does not pay for them again).
 */
export function rowFormatsToMake(record: CampaignRecord, row: CampaignRowRecord): CampaignFormat[] {
  const formats = campaignFormats(record.template.project);
  if (formats.length === 1) return formats;
  return formats.filter((f) => !row.formatResults?.[formatKeyOf(f)]);
}

/** The key a format's result is kept under in `formatResults` (the edited format's own size included). */
export function formatKeyOf(format: Pick<CampaignFormat, 'output'>): string {
  return `${format.output.width}x${format.output.height}`;
}

/** One scene's voiceover: its text spoken in its voice at its speed. */
export function voiceoverRequest(scene: Scene): StepRequest {
  return {
    kind: 'tts',
    body: {
      input_text: scene.voice?.kind === 'tts' ? scene.voice.text : '',
      voice_id: scene.voice?.kind === 'tts' ? scene.voice.voiceId : '',
      rate: scene.voice?.kind === 'tts' ? scene.voice.rate : '50%',
    },
  };
}

/** Why a scene's ended voiceover job gives the row nothing to go on with. */
export function voiceoverProblem(project: Project, sceneId: string, job: JobView): string {
  return `${sceneName(project, sceneId)}: the voiceover ${job.phase === 'completed' ? 'has no audio' : job.phase === 'outcome-unknown' ? 'may or may not have been made' : 'failed'} (${job.error?.explanation ?? 'no reason given'})`;
}

/**
 * The row's video: its project written as the campaign's target body for the connection sending it (its
 * placement, its catalogue's avatar links; refused with the export's errors), then made sendable by
 * `prepare` (text drawn as pictures, local files uploaded).
 */
export async function videoRequest(
  record: CampaignRecord,
  row: CampaignRowRecord,
  sender: { placement?: PlacementConvention; avatars?: AvatarLinks },
  prepare: (body: Record<string, unknown>, project: Project) => Promise<Record<string, unknown>>,
  format?: Pick<CampaignFormat, 'key' | 'output'>,
): Promise<StepRequest> {
  const project = rowProject(record, row, format?.key ? format.output : undefined);
  const exported = exportBody(project, { target: record.target, ...sender });
  if (!exported.ok)
    throw new Error(
      exported.problems
        .filter((p) => p.level === 'error')
        .map((p) => p.message)
        .join(' '),
    );
  const body = await prepare(exported.body as unknown as Record<string, unknown>, project);
  return { kind: record.target, body } as StepRequest;
}

/** Where a row's voices stand before its video: their lengths, and why the row is held when one does not fit. */
export interface VoiceFit {
  lengths: Record<string, number>;
  held: string[];
}

/**
 * Each voiced scene's real length (the voiceover the row was given, measured once per take), so the
 * scenes that follow their voice take it, and a fixed scene it overruns holds the row before its video
 * is paid for. A talking avatar's body sends no lengths: nothing to fit there.
 */
/** Whether a voice's file is wanted again on this machine after its length is measured. */
export interface VoiceUse {
  again?: boolean;
}

export type VoiceMeasure = (url: string, use?: VoiceUse) => Promise<number>;

export async function fitVoices(
  record: CampaignRecord,
  row: CampaignRowRecord,
  measure: VoiceMeasure | null,
): Promise<VoiceFit> {
  const lengths: Record<string, number> = { ...row.voiceLengths };
  if (record.target !== 'avatar-video' || !measure) return { lengths, held: [] };
  const project = rowProject(record, row);
  for (const scene of project.scenes) {
    const url = scene.voice ? voiceAudioUrl(scene.voice) : null;
    if (!url || lengths[scene.id] !== undefined) continue;
    try {
      // A scene with music has its voice mixed here, one with timed elements has it cut: both read its file.
      const again = musicPlanFor(project, scene.id) !== null || sceneCuts(scene).length > 0;
      lengths[scene.id] = Math.round(await measure(url, { again }));
    } catch (error) {
      throw new Error(
        `${sceneName(project, scene.id)}: the voice's length could not be measured (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  const held = voiceOverruns(project, lengths).map(
    (overrun) =>
      `${overrunText(project, overrun, false)}: held before its video was paid for, which would cut the voice off (${HOW_TO_FIT_VOICE})`,
  );
  return { lengths, held };
}

/** Why the row's ended video job gives it nothing to save. */
export function videoProblem(job: JobView): string {
  return `the video ${job.phase === 'outcome-unknown' ? 'may or may not have been made' : 'failed'} (${job.error?.explanation ?? 'no reason given'})`;
}

/** The submission of one step of one take, marked as the row's own so the reactor brings its end back. */
export function stepSubmission(campaignId: string, step: RowStep, made: StepRequest): JobSubmission {
  return {
    ...made,
    purpose: {
      type: 'campaign-row',
      campaignId,
      row: step.row,
      step: step.step,
      ...(step.sceneId ? { sceneId: step.sceneId } : {}),
      ...(step.format ? { format: step.format } : {}),
      take: step.take,
    },
    // Two rows may send the same request on purpose (the same script); each is the row's own.
    confirmDuplicate: true,
    // The user confirmed the campaign's total when starting it.
    confirmation: { by: 'batch', batchId: campaignId },
  } as JobSubmission;
}

/** Why a made video is not saved; the row's retry fetches it again. */
export function saveProblem(error: unknown): string {
  return `the video was made but could not be saved (${error instanceof Error ? error.message : String(error)}); retry the row to fetch it again`;
}
