import { musicPlans, musicReference, type Project } from '@common/composition';
import { call } from '@/bridge';
import { replaceStrings } from '@/text/submit-text';

/**
 * Puts the host's mix of each scene's music under its voice where the request body names it
 * (musicReference): the same mix the local preview plays, as a local file the upload step then links
 * like any other. Mixing is local and free; a music file the host cannot read, or a voiceover not
 * generated yet, fails here with its reason, before any upload or paid request.
 */
export async function withMusicMixes(
  body: unknown,
  project: Project,
  status: (text: string | null) => void = () => undefined,
): Promise<unknown> {
  const json = JSON.stringify(body);
  const mixes = new Map<string, string>();
  try {
    for (const plan of musicPlans(project)) {
      const reference = musicReference(plan.sceneId);
      if (!json.includes(JSON.stringify(reference))) continue;
      status(`Mixing the music under the voice of scene ${plan.sceneIndex + 1}…`);
      const mix = await call('music.mix', { project, sceneId: plan.sceneId });
      mixes.set(reference, mix.url);
    }
  } finally {
    status(null);
  }
  return mixes.size === 0 ? body : replaceStrings(body, mixes);
}
