import type { JobPurpose } from './purpose';
import { rowLabel } from '../text/row-label';

/**
 * What a job is a step of, in words, or null when its result stands on its own. A campaign row's
 * voiceover goes into the row's video, and a scene's voiceover into its project: their audio is an
 * ingredient, so nobody is asked to save it and no screen calls it "Not saved".
 */
export function stepOf(job: { purpose?: JobPurpose | null }): string | null {
  const purpose = job.purpose;
  if (purpose?.type === 'campaign-row' && purpose.step === 'voiceover')
    return `Voiceover of ${rowLabel({ row: purpose.row })} of a campaign (a step of its video)`;
  if (purpose?.type === 'scene-voiceover') return "A scene's voiceover (a step of its project)";
  return null;
}
