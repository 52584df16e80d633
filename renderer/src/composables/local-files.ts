import { mediaRefusal, readableMedia, type MediaField } from '@common/composition/media-fields';
import { importLocalFile } from '@/bridge';
import type { MediaAsset } from '@/stores/editor-assets';

/**
 * Files the user dropped, pasted or picked, taken in by the host one by one. Each becomes a media asset
 * whose url is a local reference: it previews at once and is uploaded to the active storage when a job
 * is created. A file that is not media is reported by name and skipped.
 */
export async function takeInLocalFiles(
  files: Iterable<File>,
  field?: MediaField,
): Promise<{ assets: MediaAsset[]; errors: string[] }> {
  const assets: MediaAsset[] = [];
  const errors: string[] = [];
  for (const file of files) {
    try {
      const chosen = await importLocalFile(file);
      // A picker for one field (a clone sample) refuses what that field cannot take, before anything is sent.
      const refusal = field ? mediaRefusal(field, readableMedia(chosen.info)) : null;
      if (refusal) {
        errors.push(`${file.name}: ${refusal}`);
        continue;
      }
      const { width, height } = chosen.info;
      const size = width && height ? { size: { width, height } } : {};
      assets.push({ url: chosen.url, kind: chosen.info.kind, name: chosen.name, ...size });
    } catch (error) {
      errors.push(error instanceof Error ? error.message : `${file.name}: ${String(error)}`);
    }
  }
  return { assets, errors };
}

export const isLocalReference = (url: string): boolean => url.startsWith('file:');
