import { z } from 'zod';

/**
 * Music under the voice. The service takes one sound per scene (its voice), so the studio mixes the
 * music under the voice itself (ducked while the voice speaks, brought to a loudness target) and
 * sends the mix as the scene's voice. A project may carry one track for all its scenes; a scene may
 * carry its own (which wins) or say it has none.
 */

export const MUSIC_LIMITS = {
  levelDb: { min: -40, max: 0 },
  duckDb: { min: 0, max: 30 },
  fadeMs: { min: 0, max: 10_000 },
} as const;

export const MusicTrack = z.object({
  /** The music file: a file: reference the host granted (a chosen or dropped file), or an http(s) link. */
  url: z.string().min(1),
  /** The file's name, as the user knows it. */
  name: z.string(),
  /** Where the music sits against the voice between phrases, in dB (−10: ten decibels under the voice). */
  levelDb: z.number().min(MUSIC_LIMITS.levelDb.min).max(MUSIC_LIMITS.levelDb.max),
  /** How much further the music goes down while the voice speaks, in dB (0: no ducking). */
  duckDb: z.number().min(MUSIC_LIMITS.duckDb.min).max(MUSIC_LIMITS.duckDb.max),
  fadeInMs: z.number().int().min(MUSIC_LIMITS.fadeMs.min).max(MUSIC_LIMITS.fadeMs.max),
  fadeOutMs: z.number().int().min(MUSIC_LIMITS.fadeMs.min).max(MUSIC_LIMITS.fadeMs.max),
  /** Music shorter than the scene starts again from its beginning; otherwise silence follows it. */
  loop: z.boolean(),
  /** Where in the file the music starts, in ms. */
  startMs: z.number().int().min(0).max(3_600_000),
});
export type MusicTrack = z.infer<typeof MusicTrack>;

/** A scene's own music, or `{ none: true }`: no music in this scene whatever the project has. */
export const SceneMusic = z.union([MusicTrack, z.object({ none: z.literal(true) })]);
export type SceneMusic = z.infer<typeof SceneMusic>;

/** EBU R128 loudness presets: integrated loudness (LUFS) and the highest true peak (dBTP). */
/** Web: podcasts and the open web; social: platforms that play loud (-14); broadcast: EBU R128 itself. */
export const LOUDNESS_PRESETS = [
  { id: 'web', label: 'Web · −16 LUFS', lufs: -16, truePeakDb: -1.5 },
  { id: 'social', label: 'Social · −14 LUFS', lufs: -14, truePeakDb: -1 },
  { id: 'broadcast', label: 'Broadcast · −23 LUFS', lufs: -23, truePeakDb: -1 },
] as const;
export type LoudnessPresetId = (typeof LOUDNESS_PRESETS)[number]['id'];

export const LoudnessTarget = z.object({
  preset: z.enum(['web', 'social', 'broadcast', 'custom']),
  /** Integrated loudness of each mixed scene, LUFS. */
  lufs: z.number().min(-40).max(-10),
  /** The highest true peak, dBTP. */
  truePeakDb: z.number().min(-9).max(0),
});
export type LoudnessTarget = z.infer<typeof LoudnessTarget>;

export const DEFAULT_LOUDNESS: LoudnessTarget = { preset: 'web', lufs: -16, truePeakDb: -1.5 };

/** A new track's settings: a bed ten decibels under the voice, twelve more under speech, short fades, looped. */
export function defaultMusicTrack(url: string, name: string): MusicTrack {
  return { url, name, levelDb: -10, duckDb: 12, fadeInMs: 1000, fadeOutMs: 2000, loop: true, startMs: 0 };
}

/** What the service is sent for a scene whose voice is mixed with music, named by this until the mix exists. */
export const MUSIC_REFERENCE_PREFIX = 'studio-music:';

export function musicReference(sceneId: string): string {
  return `${MUSIC_REFERENCE_PREFIX}${sceneId}`;
}
