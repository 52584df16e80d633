import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { rowNumberText } from '../../common/campaign/rows';
import { fillTemplate } from '../../common/campaign/variables';
import type { JobView } from '../../common/bridge/jobs';
import type { OutputSize, Project } from '../../common/composition/document';
import { projectInFormat } from '../../common/composition/formats';
import { fitFollowingScenes } from '../../common/composition/scene-length';
import { linkBeside } from './campaign-check';
import { lastRowOf } from './row-identity';

/**
 * A row's own project, rebuilt from the campaign's record exactly as the check built it: the template
 * filled with the row's values (paths in link columns read beside the spreadsheet), voices given by
 * name replaced by the ids the check found, and this take's voiceovers in place, the scenes that
 * follow their voice as long as its measured length.
 */
export function rowProject(record: CampaignRecord, row: CampaignRowRecord, output?: OutputSize): Project {
  return fitFollowingScenes(filledProject(record, row, output), row.voiceLengths ?? {});
}

function filledProject(record: CampaignRecord, row: CampaignRowRecord, output?: OutputSize): Project {
  // Once per list of rows: asked for every row of thousands, a scan each time made pricing quadratic.
  const last = lastRowOf(record.rows);
  // Another format is taken out before the row's values go in: its boxes were laid out (and its text
  // measured) for the template's words, which the values then replace as they do in the edited format.
  const template = output
    ? { ...record.template, project: projectInFormat(record.template.project, output) }
    : record.template;
  const filled = fillTemplate(template, row.values, {
    row: rowNumberText(row.row, last),
    link: record.sheetFolder ? linkBeside(record.sheetFolder) : undefined,
  });
  const id = (voice: string): string => record.voiceIds[voice] ?? voice;
  return {
    ...filled.project,
    scenes: filled.project.scenes.map((scene) => ({
      ...scene,
      voice:
        scene.voice?.kind === 'tts'
          ? {
              ...scene.voice,
              voiceId: id(scene.voice.voiceId),
              ...(row.voiceovers[scene.id] ? { audioUrl: row.voiceovers[scene.id] } : {}),
            }
          : scene.voice,
      elements: scene.elements.map((e) => (e.type === 'audio' && e.voiceId ? { ...e, voiceId: id(e.voiceId) } : e)),
    })),
  };
}

/** Which step of which row a job is, when it is one of this campaign's. */
export interface RowStep {
  row: number;
  step: 'voiceover' | 'video';
  sceneId?: string;
  /** A video in another of the template's formats (its formatKey); absent: the format being edited. */
  format?: string;
  take: number;
}

export function stepOf(job: Pick<JobView, 'purpose'>, campaignId: string): RowStep | null {
  const p = job.purpose;
  if (p.type !== 'campaign-row' || p.campaignId !== campaignId) return null;
  return { row: p.row, step: p.step, sceneId: p.sceneId, format: p.format, take: p.take };
}

/** The newest job of one step of one take of a row, or null when the ledger has none. */
export function latestStepJob(jobs: readonly JobView[], campaignId: string, step: RowStep): JobView | null {
  let latest: JobView | null = null;
  for (const job of jobs) {
    const s = stepOf(job, campaignId);
    if (
      !s ||
      s.row !== step.row ||
      s.step !== step.step ||
      s.take !== step.take ||
      s.sceneId !== step.sceneId ||
      s.format !== step.format
    )
      continue;
    if (!latest || job.createdAt >= latest.createdAt) latest = job;
  }
  return latest;
}

/** "Scene 2 (outro)", as the row's problems name a scene. */
export function sceneName(project: Project, sceneId: string): string {
  const index = project.scenes.findIndex((s) => s.id === sceneId);
  const scene = project.scenes[index];
  return `Scene ${index + 1}${scene?.name ? ` (${scene.name})` : ''}`;
}
