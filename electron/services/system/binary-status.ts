import type { AppSettings, BinaryStatus } from '../../common/bridge';

/**
 * Reports which ffmpeg and ffprobe the app uses. The lookup itself belongs to the media service
 * (electron/services/media); until it is wired in here, each binary reports that plainly.
 */
export async function probeBinaries(_settings: AppSettings): Promise<BinaryStatus[]> {
  return (['ffmpeg', 'ffprobe'] as const).map((name) => ({
    name,
    path: null,
    source: null,
    version: null,
    error: `The ${name} lookup (media service) is not wired into this build yet`,
  }));
}
