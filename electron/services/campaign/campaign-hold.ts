import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { Project } from '../../common/composition/document';
import { rowProject } from './row-project';

/**
 * A held row when its campaign is revised (the template or the spreadsheet fitted): it takes the fresh
 * check's verdict (sent now, held again, or refused). While its scripts are the ones its voiceovers were
 * made from, it keeps its take, so the voiceovers already paid for are used again, not bought twice.
 */
export function releaseHeld(
  existing: CampaignRecord,
  before: CampaignRowRecord,
  fresh: CampaignRecord,
  row: CampaignRowRecord,
): CampaignRowRecord {
  const verdict = { state: row.state, problems: row.problems };
  if (sameSpeech(rowProject(existing, before), rowProject(fresh, row)))
    return { ...row, ...verdict, take: before.take, voiceovers: before.voiceovers, voiceLengths: before.voiceLengths };
  return { ...row, ...verdict, take: before.take + 1 };
}

/** The scripts each scene speaks (words, voice, speed), which decide its voiceover. */
function sameSpeech(a: Project, b: Project): boolean {
  const speech = (project: Project) =>
    JSON.stringify(
      project.scenes.map((scene) =>
        scene.voice?.kind === 'tts' ? [scene.id, scene.voice.text, scene.voice.voiceId, scene.voice.rate] : [scene.id],
      ),
    );
  return speech(a) === speech(b);
}
