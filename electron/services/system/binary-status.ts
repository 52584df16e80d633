import type { AppSettings, BinaryStatus } from '../../common/bridge';
import { resolveMediaBinaries } from './binaries';

/** Which ffmpeg and ffprobe the app uses for these settings (the lookup belongs to the media service). */
export async function probeBinaries(settings: AppSettings): Promise<BinaryStatus[]> {
  return resolveMediaBinaries({ settings });
}
