import type { uploadsCalls } from '../../common/bridge/uploads';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import type { LocalGrants } from '../media/local-grants';
import { localReferences, replaceReferences } from './local-media';
import type { StorageServices } from './storage-services';

/** Local files become links on the active storage, only for files the user granted. */
export function createUploadsDomain(base: HostBase, storage: StorageServices, grants: LocalGrants): DomainModule<typeof uploadsCalls> {
  const running = new Map<string, AbortController>();
  return {
    handlers: {
      'uploads.linkLocalMedia': async ({ uploadId, value }) => {
        const references = localReferences(value);
        if (references.length === 0) return { value, files: [] };
        const paths = references.map((reference) => {
          const path = grants.pathOf(reference);
          if (!path) throw new StudioError(`${decodeURIComponent(reference.split('/').pop() ?? reference)} was not chosen or dropped in this session; add the file again.`, 'not-allowed');
          return path;
        });
        if (running.has(uploadId)) throw new StudioError('An upload with this id is already running.', 'busy');
        const controller = new AbortController();
        running.set(uploadId, controller);
        let lastEmit = 0;
        try {
          const results = await storage.uploader.uploadAll(paths, storage.storages.activeId(), {
            signal: controller.signal,
            onProgress: (phase, doneBytes, totalBytes, fileName) => {
              // The uploader reports every chunk; ten events a second (and each file's end) are plenty.
              const now = Date.now();
              if (doneBytes < totalBytes && now - lastEmit < 100) return;
              lastEmit = now;
              base.emit('uploads.progress', { uploadId, fileName, phase, doneBytes, totalBytes });
            },
          });
          const links = new Map(references.map((reference, i) => [reference, results[i].url]));
          return {
            value: replaceReferences(value, links),
            files: results.map((r, i) => ({ reference: references[i], fileName: r.fileName, url: r.url, expiresAt: r.expiresAt, how: r.how })),
          };
        } catch (error) {
          throw new StudioError((error as Error).message, 'upload-failed');
        } finally {
          running.delete(uploadId);
        }
      },
      'uploads.cancel': async (uploadId) => {
        const controller = running.get(uploadId);
        controller?.abort();
        return controller !== undefined;
      },
    },
    async dispose() {
      for (const controller of running.values()) controller.abort();
    },
  };
}
