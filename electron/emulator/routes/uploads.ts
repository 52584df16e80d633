import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { isRealMedia } from '../../common/composition/media-info';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { Code } from '../../common/api';

/** Large enough for the biggest medium the interface takes (a 300 MB lip sync video). */
export const UPLOAD_LIMIT_BYTES = 300 * 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;

class TooLarge extends Error {}

/**
 * `PUT /__sandbox/uploads/<name>`: the sandbox hosts a local file for the studio, as a storage bucket
 * would, so local media works offline. The body is the raw file; it must be a picture, video or sound
 * (probed with ffprobe) and at most UPLOAD_LIMIT_BYTES. The file is served at `/files/<stored name>`
 * for the same 7 days as results. Authenticated with the account's key like the control routes.
 */
export async function uploadRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  await app.register(async (scope) => {
    // Streams the body instead of buffering it; only this scope accepts non-JSON bodies.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.put<{ Params: { name: string } }>(
      '/__sandbox/uploads/:name',
      { bodyLimit: UPLOAD_LIMIT_BYTES },
      async (request) => {
        ctx.accounts.authenticate(request.headers);
        const { name } = request.params;
        if (!NAME.test(name))
          throw new ApiError(
            Code.ParameterError,
            'name must be letters, digits, dots, dashes or underscores (at most 120)',
          );
        const declared = Number(request.headers['content-length'] ?? NaN);
        if (declared > UPLOAD_LIMIT_BYTES)
          throw new ApiError(Code.ParameterError, `file is larger than ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB`);

        const stored = `up-${randomBytes(6).toString('hex')}-${name}`;
        const temp = join(ctx.files.workDir, `${stored}.part`);
        let received = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, next) {
            received += chunk.length;
            next(received > UPLOAD_LIMIT_BYTES ? new TooLarge() : null, chunk);
          },
        });
        try {
          await pipeline(request.body as NodeJS.ReadableStream, counter, createWriteStream(temp));
          if (received === 0) throw new ApiError(Code.ParameterError, 'the uploaded file is empty');
          const info = await ctx.tools.probe(temp).catch(() => null);
          if (!info || !isRealMedia(info))
            throw new ApiError(
              Code.ParameterError,
              `${name} is not a picture, video or sound file that ffprobe can read`,
            );
          await rename(temp, ctx.files.resultPath(stored));
          ctx.files.register(stored);
          const entry = ctx.store.state.files[stored];
          return {
            code: Code.Success,
            msg: 'OK',
            data: { url: ctx.files.resultUrl(stored), expiresAt: entry.expiresAt, kind: info.kind, size: received },
          };
        } catch (error) {
          if (error instanceof TooLarge)
            throw new ApiError(Code.ParameterError, `file is larger than ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB`);
          throw error;
        } finally {
          await rm(temp, { force: true });
        }
      },
    );
  });
}
