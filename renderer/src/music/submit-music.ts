import { musicPlans, musicReference, voicePartsIn, type Project } from '@common/composition';
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
      const mix = await call('music.mix', { project: soundOf(project), sceneId: plan.sceneId });
      mixes.set(reference, mix.url);
    }
  } finally {
    status(null);
  }
  return mixes.size === 0 ? body : replaceStrings(body, mixes);
}

/**
 * Puts the host's cut of a scene's sound where a scene sent in parts names it (voicePartReference: its
 * elements are timed inside it, scene-parts.ts): each part's piece of the voice, or of the music mix,
 * as a local file the upload step links. Fails here, before any upload, when a voice is not made yet.
 */
export async function withVoiceParts(
  body: unknown,
  project: Project,
  status: (text: string | null) => void = () => undefined,
): Promise<unknown> {
  const parts = new Map<string, string>();
  try {
    for (const reference of voicePartsIn(body)) {
      status('Cutting the voice where the timed elements appear…');
      parts.set(reference, (await call('music.voicePart', { project: soundOf(project), reference })).url);
    }
  } finally {
    status(null);
  }
  return parts.size === 0 ? body : replaceStrings(body, parts);
}

/**
 * What the host needs to mix or cut a scene's sound: the project without its other formats' layouts. A
 * format's project (projectInFormat) lists the original among its formats at its own size, which the
 * bridge's project check refuses as a format given twice; sound is shared by every format anyway.
 */
function soundOf(project: Project): Project {
  const { formats: _formats, ...rest } = project;
  return rest;
}
