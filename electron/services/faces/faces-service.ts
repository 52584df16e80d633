import { readFile } from 'node:fs/promises';
import type { AnalyzeRequest, AnalyzeResult, DetectRequest, DetectResult } from '../../common/bridge/faces';
import { mediaRefusal, readableMedia } from '../../common/composition/media-fields';
import type { MediaFormat } from '../../common/composition/media-format';
import type { MediaInfo } from '../../common/composition/media-info';
import type { ServiceClient } from '../client/service-client';

export interface FacesDeps {
  activeClient(): Promise<{ connectionId: string; client: ServiceClient }>;
  /** The path of a local file the user granted, or null. */
  localPath(reference: string): string | null;
  /** What a granted local file is, from its content (its name may lie). */
  probe(reference: string): Promise<MediaInfo>;
}

/** Still pictures the service reads from `img`; anything else local has to go up as a link first. */
const INLINE_IMAGES: Partial<Record<MediaFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
  webp: 'image/webp',
};

/** Face detection and analyze frames through the active connection. Both only read: nothing is charged or recorded. */
export class FacesService {
  constructor(private readonly deps: FacesDeps) {}

  async detect(request: DetectRequest): Promise<DetectResult> {
    const { client } = await this.deps.activeClient();
    const media = request.source.startsWith('file:')
      ? { img: await this.inline(request.source) }
      : { url: request.source };
    return client.call('detectFaces', {
      ...media,
      ...(request.singleFace !== undefined && { single_face: request.singleFace }),
      ...(request.returnFaceUrl !== undefined && { return_face_url: request.returnFaceUrl }),
      ...(request.numFrames !== undefined && { num_frames: request.numFrames }),
    });
  }

  async analyze(request: AnalyzeRequest): Promise<AnalyzeResult> {
    if (request.timestamps && request.timestamps.length !== request.frameUrls.length) {
      throw new Error(
        `Give one timestamp per frame: ${request.frameUrls.length} frames but ${request.timestamps.length} timestamps.`,
      );
    }
    const { client } = await this.deps.activeClient();
    const answer = await client.call('analyzeFrames', {
      frame_urls: request.frameUrls,
      ...(request.timestamps && { timestamps: request.timestamps }),
      ...(request.expandRatio !== undefined && { expand_ratio: request.expandRatio }),
    });
    if (!answer.success) throw new Error(answer.error);
    const persons = [...answer.persons].sort((a, b) => a.index - b.index || a.bbox[0] - b.bbox[0]);
    return { frameCount: answer.frame_count, persons };
  }

  private async inline(reference: string): Promise<string> {
    const path = this.deps.localPath(reference);
    if (path === null) throw new Error('This local file was not chosen in the studio; pick it again.');
    const info = readableMedia(await this.deps.probe(reference).catch(() => null));
    const refusal = mediaRefusal('face-detect', info);
    if (refusal) throw new Error(refusal);
    const type = info?.kind === 'image' ? INLINE_IMAGES[info.format] : undefined;
    if (!type)
      throw new Error(
        `Only a local picture (JPEG, PNG, BMP, WebP) can be sent inline; upload "${path.split(/[\\/]/).pop()}" and give its link instead.`,
      );
    const bytes = await readFile(path);
    return `data:${type};base64,${bytes.toString('base64')}`;
  }
}
