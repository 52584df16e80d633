import type { avatarsCalls } from '../../common/bridge/avatars';
import type { MediaInfo } from '../../common/composition/media-info';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import { AvatarsService } from './avatars-service';

/**
 * The avatars of the active connection for the Tools workspace. `linkLocalMedia` is the uploads
 * domain's call (a granted local file becomes a link on the active storage, all or nothing).
 */
export function createAvatarsDomain(
  base: Pick<HostBase, 'emit'>,
  studio: Pick<StudioServices, 'catalogue' | 'target' | 'jobs'>,
  linkLocalMedia: (value: unknown) => Promise<{ value: unknown }>,
  probe?: (reference: string) => Promise<MediaInfo>,
): DomainModule<typeof avatarsCalls> {
  const avatars = new AvatarsService({
    ...(probe && { probe }),
    activeClient: async () => studio.target.client((await studio.target.active()).id),
    link: async (source) => (await linkLocalMedia(source)).value as string,
    submit: (submission) => studio.jobs.submit(submission),
    uploadsChanged: () => {
      studio.catalogue.clear();
      base.emit('catalogue.changed', { reason: 'avatar-upload' });
    },
  });
  return {
    handlers: {
      'avatars.list': async (query) => avatars.list(query),
      'avatars.detail': async (id) => avatars.detail(id),
      'avatars.checkUpload': async (request) => avatars.check(request),
      'avatars.upload': async (request) => avatars.upload(request),
    },
  };
}
