import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import type { Project } from '../../common/composition/document';
import { followsVoice } from '../../common/composition/voice-follow';
import { rowHolds, variablesInText } from '../../common/campaign/speech-fit';
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

/**
 * The campaign with every voiced scene of fixed length made to follow its voice, and each held row
 * that then fits released (a row held for an absurdly long value stays held: only its cell can fit it).
 * Rows already made keep their videos; rows still to come follow their voices too.
 */
export function followHeld(record: CampaignRecord): { record: CampaignRecord; released: number[] } {
  const project = record.template.project;
  const following: CampaignRecord = {
    ...record,
    template: {
      ...record.template,
      project: {
        ...project,
        scenes: project.scenes.map((scene) =>
          scene.voice && !followsVoice(project, scene) ? { ...scene, followVoice: true } : scene,
        ),
      },
    },
  };
  const inText = variablesInText(following.template);
  const released: number[] = [];
  const rows = following.rows.map((row) => {
    if (row.state !== 'held') return row;
    // Every voice follows now: only a value too long for its sentence can still hold the row.
    const holds = rowHolds(rowProject(following, row), row.values, inText, () => null);
    if (holds.length > 0) return { ...row, problems: holds };
    released.push(row.row);
    return { ...row, state: 'pending' as const, problems: [] };
  });
  return { record: { ...following, rows, state: released.length > 0 ? 'running' : record.state }, released };
}
