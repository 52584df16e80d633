import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { mediaRefusal, readableMedia } from '../../common/composition/media-fields';
import {
  ANALYZE_FRAMES_MESSAGES,
  DEFAULT_EXPAND_RATIO,
  DEFAULT_NUM_FRAMES,
  FACE_DETECTION_MESSAGES,
  type FaceFrame,
  Code,
} from '../../common/api';
import type { KnownMedia } from '../catalogue/catalogue';
import type { FaceGeometry } from '../catalogue/draw-face';
import type { EmulatorContext } from '../context';
import { ApiError, MediaError } from '../errors';
import { expandRegion, faceFrame, mergePersons, pickFaces, sampleTimes, type Box } from '../media/faces';
import { defineEndpoint } from '../server';

/**
 * Face detection never invents faces: it recognises the sandbox's own drawn media by content hash
 * (their faces are known exactly) and reports "No faces detected" for anything else.
 */
/** Where the service's docs give analyze frames (the interface document leaves its prefix out). */
export const ANALYZE_FRAMES_DOCS_PATH = '/interface/detect-api/faceswap/analyze_frames';

export function faceRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const crop = async (
    source: string,
    media: KnownMedia,
    face: FaceGeometry,
    time: number | null,
    ratio: number,
  ): Promise<{ box: Box; url: string }> => {
    const box = expandRegion(face.region, ratio, media.width, media.height);
    const file = `crop-${randomBytes(8).toString('hex')}.jpg`;
    await ctx.tools.runFfmpeg([
      ...(time === null ? [] : ['-ss', String(time)]),
      '-i',
      source,
      '-frames:v',
      '1',
      '-vf',
      `crop=${box[2] - box[0]}:${box[3] - box[1]}:${box[0]}:${box[1]}`,
      '-q:v',
      '4',
      ctx.files.resultPath(file),
    ]);
    ctx.files.register(file);
    return { box, url: ctx.files.resultUrl(file) };
  };

  const localMedia = async (input: { url?: string; img?: string }): Promise<string> => {
    if (input.url !== undefined) {
      try {
        return await ctx.fetcher.toFile(input.url, 'url');
      } catch (error) {
        throw new ApiError(
          Code.ResourceNotFound,
          `${FACE_DETECTION_MESSAGES.downloadFailed}: ${(error as Error).message}`,
        );
      }
    }
    const data = String(input.img).replace(/^data:[^;,]*;base64,/, '');
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length === 0 || !/^[A-Za-z0-9+/=\s_-]+$/.test(data))
      throw new ApiError(Code.ParameterError, `${FACE_DETECTION_MESSAGES.typeDetectionFailed}: img is not base64 data`);
    const path = join(ctx.files.workDir, `img-${randomBytes(8).toString('hex')}`);
    await writeFile(path, bytes);
    return path;
  };

  defineEndpoint(app, ctx, 'detectFaces', async (body) => {
    const path = await localMedia(body);
    const known = await ctx.catalogue.identify(path);
    if (!known) {
      // Only the picture and video types the service lists can show faces; anything else (text, sound,
      // HEIC) is not a supported type.
      const info = await ctx.tools.probe(path).catch(() => null);
      // The service's own words, as it says them.
      if (mediaRefusal('face-detect', readableMedia(info)))
        throw new ApiError(Code.ParameterError, FACE_DETECTION_MESSAGES.typeDetectionFailed);
      throw new ApiError(Code.ParameterError, FACE_DETECTION_MESSAGES.noFaces);
    }
    const faces = pickFaces(known.faces, body.single_face === true);
    const frames: Record<string, FaceFrame> = {};
    const times = sampleTimes(known, body.num_frames ?? DEFAULT_NUM_FRAMES);
    try {
      await Promise.all(
        times.map(async (time, i) => {
          const crops = body.return_face_url
            ? await Promise.all(faces.map((f) => crop(path, known, f, time, 0.2)))
            : undefined;
          frames[String(i)] = faceFrame(faces, time, crops);
        }),
      );
    } catch (error) {
      throw new ApiError(
        Code.ParameterError,
        `${FACE_DETECTION_MESSAGES.processingFailed}: ${(error as Error).message}`,
      );
    }
    return {
      error_code: 0,
      error_msg: 'SUCCESS',
      faces_obj: Object.fromEntries(Object.entries(frames).sort(([a], [b]) => Number(a) - Number(b))),
    };
  });

  defineEndpoint(
    app,
    ctx,
    'analyzeFrames',
    async (body) => {
      const ratio = body.expand_ratio ?? DEFAULT_EXPAND_RATIO;
      const sightings = [];
      const sources = new Map<number, { path: string; media: KnownMedia }>();
      for (const [i, url] of body.frame_urls.entries()) {
        let path: string;
        try {
          path = await ctx.fetcher.toFile(url, 'frame_urls');
        } catch (error) {
          if (error instanceof MediaError)
            throw new ApiError(Code.ResourceNotFound, ANALYZE_FRAMES_MESSAGES.downloadFailed);
          throw error;
        }
        const known = await ctx.catalogue.identify(path);
        if (!known) continue;
        sources.set(i, { path, media: known });
        const timestamp = body.timestamps?.[i] ?? i;
        for (const face of known.faces) sightings.push({ frameIdx: i, timestamp, face });
      }
      const persons = await mergePersons(sightings, async (first) => {
        const src = sources.get(first.frameIdx);
        if (!src) return '';
        return (await crop(src.path, src.media, first.face, src.media.kind === 'video' ? 0 : null, ratio)).url;
      });
      return { success: true, frame_count: body.frame_urls.length, persons };
    },
    [ANALYZE_FRAMES_DOCS_PATH],
  );
}
