import type { LinkedValue, UploadProgress } from '../../common/bridge/uploads';
import { StudioError } from '../host/errors';
import type { LocalGrants } from '../media/local-grants';
import { localReferences, replaceReferences } from './local-media';
import type { StorageServices } from './storage-services';

/**
 * Turns the local files a value names into links on the active storage, only for files the user
 * granted. The uploads domain answers the page with it; the tools and avatars domains use it directly
 * (a domain uses another's service, never its bridge handler).
 */
export class LocalMediaLinker {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly deps: {
      storage: StorageServices;
      grants: LocalGrants;
      onProgress?: (progress: UploadProgress) => void;
    },
  ) {}

  /**
   * A value with every granted local reference replaced by its uploaded link; `uploadId` names the run
   * for cancel(); `storage` (an id or name) instead of the active storage.
   */
  async link(uploadId: string, value: unknown, storage?: string): Promise<LinkedValue> {
    const references = localReferences(value);
    if (references.length === 0) return { value, files: [] };
    const paths = references.map((reference) => {
      const path = this.deps.grants.pathOf(reference);
      if (!path) throw notChosen(reference);
      return path;
    });
    if (this.running.has(uploadId)) throw new StudioError('An upload with this id is already running.', 'busy');
    const controller = new AbortController();
    this.running.set(uploadId, controller);
    let lastEmit = 0;
    try {
      const { uploader, storages } = this.deps.storage;
      const target = storage === undefined ? storages.activeId() : storages.resolve(storage);
      const results = await uploader.uploadAll(paths, target, {
        signal: controller.signal,
        onProgress: (phase, doneBytes, totalBytes, fileName) => {
          // The uploader reports every chunk; ten events a second (and each file's end) are plenty.
          const now = Date.now();
          if (doneBytes < totalBytes && now - lastEmit < 100) return;
          lastEmit = now;
          this.deps.onProgress?.({ uploadId, fileName, phase, doneBytes, totalBytes });
        },
      });
      const links = new Map(references.map((reference, i) => [reference, results[i].url]));
      return {
        value: replaceReferences(value, links),
        files: results.map((r, i) => ({
          reference: references[i],
          fileName: r.fileName,
          url: r.url,
          expiresAt: r.expiresAt,
          how: r.how,
          sha256: r.hash,
        })),
      };
    } catch (error) {
      throw new StudioError((error as Error).message, 'upload-failed');
    } finally {
      this.running.delete(uploadId);
    }
  }

  /** A run of this service itself, named for its logs and cancel(): `${prefix}-<time>-<random>`. */
  linkFor(prefix: string): (value: unknown) => Promise<LinkedValue> {
    return (value) =>
      this.link(`${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, value);
  }

  cancel(uploadId: string): boolean {
    const controller = this.running.get(uploadId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Aborts every upload under way (quit). */
  cancelAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }
}

/** The refusal of a local reference the user did not choose or drop in this session, naming its file. */
export function notChosen(reference: string): StudioError {
  return new StudioError(
    `${decodeURIComponent(reference.split('/').pop() ?? reference)} was not chosen or dropped in this session; add the file again.`,
    'not-allowed',
  );
}
