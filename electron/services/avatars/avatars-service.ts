import { DEFAULT_AVATAR_PAGE_SIZE, type AvatarRecord } from '../../common/api';
import type { AvatarPage, AvatarUploadCheck, AvatarUploadRequest } from '../../common/bridge/avatars';
import type { AvatarQuery } from '../../common/bridge/catalogue';
import type { JobSubmission, SubmitResult } from '../../common/bridge/jobs';
import { mediaRefusal, readableMedia } from '../../common/composition/media-fields';
import { MediaProbeError, type MediaInfo } from '../../common/composition/media-info';
import { isServiceError } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import { StudioError } from '../host/errors';
import { findAvatar } from '../client/avatar-lookup';

export interface AvatarsDeps {
  /** The client of the connection new work goes to. */
  activeClient(): Promise<ServiceClient>;
  /** A local file (a granted `file:` reference, or a path on the command line) as a link the service can fetch. */
  link(source: string): Promise<string>;
  /** Through the job engine: ledger first, then the create, then polling to 3 or 4. */
  submit(submission: JobSubmission): Promise<SubmitResult>;
  /** The uploaded avatars changed: cached lists are stale (the editor's Uploaded tab shows the new one as processing). */
  uploadsChanged(): void;
  /** What a local file is, from its content: a file the service would not take is refused before it is uploaded. */
  probe?(source: string): Promise<MediaInfo>;
}

const isLink = (value: string): boolean => /^https?:\/\/[^\s/]+/i.test(value);

/** Avatars of the active connection: the list page by page, one avatar's record, and uploads as jobs. */
export class AvatarsService {
  constructor(private readonly deps: AvatarsDeps) {}

  async list(query: AvatarQuery = {}): Promise<AvatarPage> {
    const page = query.page ?? 1;
    const size = query.size ?? DEFAULT_AVATAR_PAGE_SIZE;
    const client = await this.deps.activeClient();
    const items = await client.call('avatarList', { ...query, page, size });
    return { items, page, size, hasMore: items.length >= size };
  }

  /**
   * One avatar by its record id (what the detail operation takes) or by its `avatar_id` (what the list
   * and the CLI show): the detail first, else the list, whose record then gives the id for the detail.
   */
  async detail(id: string): Promise<AvatarRecord> {
    const client = await this.deps.activeClient();
    const byRecordId = await this.detailOf(client, id);
    if (byRecordId) return byRecordId;
    const listed = await findAvatar(client, id);
    if (!listed)
      throw new StudioError(
        `No avatar with the id "${id}" on this connection (neither a record id nor an avatar_id).`,
        'not-found',
      );
    const detailed = listed._id ? await this.detailOf(client, listed._id) : null;
    // The list has the thumbnail and gender, the detail the status: keep both.
    return { ...listed, ...(detailed ?? {}) };
  }

  /**
   * Refuses (StudioError 'refused') what the service or the studio would refuse once sent: an avatar_id
   * already used, a local file the service would not take. Nothing is uploaded or sent.
   */
  async check(request: AvatarUploadCheck): Promise<void> {
    const client = await this.deps.activeClient();
    // The service would refuse it with 1222 after the upload; say so before anything is sent.
    const taken = await findAvatar(client, request.avatarId);
    if (taken) {
      throw new StudioError(
        `The avatar_id "${request.avatarId}" is already used on this connection (by "${taken.name || taken.avatar_id}"); choose another.`,
        'refused',
      );
    }
    const local = !isLink(request.source);
    if (local && this.deps.probe) {
      // A file ffprobe cannot read is refused below; any other failure (a file never chosen) speaks for itself.
      const info = await this.deps.probe(request.source).catch((error: unknown) => {
        if (error instanceof MediaProbeError) return null;
        throw error;
      });
      const refusal = mediaRefusal('avatar-upload', readableMedia(info));
      if (refusal) throw new StudioError(refusal, 'refused');
    }
  }

  async upload(request: AvatarUploadRequest): Promise<SubmitResult> {
    // Asked again at sending: the answer to the price question may have taken minutes.
    await this.check(request);
    const local = !isLink(request.source);
    const url = local ? await this.deps.link(request.source) : request.source;
    const result = await this.deps.submit({
      kind: 'avatar-upload',
      body: {
        url,
        avatar_id: request.avatarId,
        name: request.name,
        type: request.type,
        url_from: local ? 1 : (request.urlFrom ?? 1),
      },
      purpose: { type: 'avatar-upload' },
      confirmation: request.confirmation,
      ...(request.confirmDuplicate ? { confirmDuplicate: true } : {}),
    });
    if (result.status === 'submitted') this.deps.uploadsChanged();
    return result;
  }

  private async detailOf(client: ServiceClient, id: string): Promise<AvatarRecord | null> {
    try {
      const [record] = await client.call('avatarDetail', { id });
      return record ?? null;
    } catch (error) {
      // 1008 "content does not exist": not a record id; 1003 a malformed one. Anything else is a real failure.
      if (isServiceError(error) && error.kind === 'service' && (error.code === 1008 || error.code === 1003))
        return null;
      throw error;
    }
  }
}
