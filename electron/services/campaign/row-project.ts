import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { rowNumberText } from '../../common/campaign/rows';
import { fillTemplate } from '../../common/campaign/variables';
import type { JobView } from '../../common/bridge/jobs';
import type { Project } from '../../common/composition/document';
import { linkBeside } from './campaign-check';

/**
 * A row's own project, rebuilt from the campaign's record exactly as the check built it: the template
 * filled with the row's values (paths in link columns read beside the spreadsheet), voices given by
 * name replaced by the ids the check found, and this take's voiceovers in place.
 */
export function rowProject(record: CampaignRecord, row: CampaignRowRecord): Project {
  const last = Math.max(0, ...record.rows.map((r) => r.row));
  const filled = fillTemplate(record.template, row.values, { row: rowNumberText(row.row, last), link: record.sheetFolder ? linkBeside(record.sheetFolder) : undefined });
  const id = (voice: string): string => record.voiceIds[voice] ?? voice;
  return {
    ...filled.project,
    scenes: filled.project.scenes.map((scene) => ({
      ...scene,
      voice: scene.voice?.kind === 'tts' ? { ...scene.voice, voiceId: id(scene.voice.voiceId), ...(row.voiceovers[scene.id] ? { audioUrl: row.voiceovers[scene.id] } : {}) } : scene.voice,
      elements: scene.elements.map((e) => (e.type === 'audio' && e.voiceId ? { ...e, voiceId: id(e.voiceId) } : e)),
    })),
  };
}

/** Which step of which row a job is, when it is one of this campaign's. */
export interface RowStep {
  row: number;
  step: 'voiceover' | 'video';
  sceneId?: string;
  take: number;
}

export function stepOf(job: Pick<JobView, 'purpose'>, campaignId: string): RowStep | null {
  const p = job.purpose;
  if (p.type !== 'campaign-row' || p.campaignId !== campaignId) return null;
  return { row: p.row, step: p.step, sceneId: p.sceneId, take: p.take };
}

/**
 * Whether a job's create was refused by the service before anything was made (no remote id): a rate
 * limit answer, say. Nothing exists at the service for it, so sending the step again creates it once.
 */
export function refusedBeforeCreate(job: Pick<JobView, 'phase' | 'remoteId'>): boolean {
  return job.phase === 'failed' && job.remoteId === null;
}
