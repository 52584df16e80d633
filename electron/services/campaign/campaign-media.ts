import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pictureSize, textElementsOf, textReference } from '../../common/composition/text-ops';
import type { Project } from '../../common/composition/document';
import type { TextStyle } from '../../common/composition/text-style';
import { fileURLToPath } from 'node:url';
import { localReferences, replaceReferences } from '../storage/local-media';
import type { StorageServices } from '../storage/storage-services';
import { saveWithRetries } from '../voices/batch-export';

export interface SendableDeps {
  /** The host's picture of a text style (services/text/text-pictures.ts), as a file: link. */
  picture(style: TextStyle, size: { width: number; height: number }): Promise<{ url: string }>;
  /** The value with every local file it names uploaded and replaced by its link. */
  linkLocal(value: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * A row's request body as the editor's Create sends one: each text element replaced by the host's
 * picture of it (the same rasteriser as the canvas), then every local file (those pictures, and per-row
 * files named in the spreadsheet) uploaded and linked. Each picture is kept by what it shows, so rows
 * sharing a text share one picture and one upload.
 */
export async function sendableBody(body: Record<string, unknown>, project: Project, deps: SendableDeps): Promise<Record<string, unknown>> {
  const json = JSON.stringify(body);
  const pictures = new Map<string, string>();
  for (const element of textElementsOf(project)) {
    const reference = textReference(element.id);
    if (!element.text || !json.includes(JSON.stringify(reference))) continue;
    pictures.set(reference, (await deps.picture(element.text, pictureSize(element))).url);
  }
  const pictured = pictures.size === 0 ? body : (replaceReferences(body, pictures) as Record<string, unknown>);
  return deps.linkLocal(pictured);
}

/**
 * Saves a row's video into the campaign's folder as a batch saves its rows: through a .part file,
 * checked (`verify`, ffprobe) before it takes its name, tried three times unless the link is gone.
 */
export async function saveResult(url: string, target: string, options: { verify?: (path: string) => Promise<void>; fetch?: typeof globalThis.fetch } = {}): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await saveWithRetries(url, target, options);
}

/**
 * Uploads every local file a value names to the active storage (the same uploader as the editor's
 * Create: a file already uploaded is linked again, not sent twice) and puts the links in their place.
 * For a host that reads the files itself (the command line): the page's own path grants them instead.
 */
export function uploadLocalFiles(storage: StorageServices): (value: Record<string, unknown>) => Promise<Record<string, unknown>> {
  return async (value) => {
    const references = localReferences(value);
    if (references.length === 0) return value;
    const results = await storage.uploader.uploadAll(references.map((ref) => fileURLToPath(ref)), storage.storages.activeId());
    return replaceReferences(value, new Map(references.map((ref, i) => [ref, results[i].url]))) as Record<string, unknown>;
  };
}
