import type { uploadsCalls } from '../../common/bridge/uploads';
import type { DomainModule } from '../host/types';
import type { LocalMediaLinker } from './local-media-linker';

/** The uploads.* calls: the page's side of the local media linker. */
export function createUploadsDomain(linker: LocalMediaLinker): DomainModule<typeof uploadsCalls> {
  return {
    handlers: {
      'uploads.linkLocalMedia': async ({ uploadId, value, storage }) => linker.link(uploadId, value, storage),
      'uploads.cancel': async (uploadId) => linker.cancel(uploadId),
    },
    async dispose() {
      linker.cancelAll();
    },
  };
}
