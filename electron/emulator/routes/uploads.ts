import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { isRealMedia } from '../../common/composition/media-info';
import type { EmulatorContext } from '../context';
import { pngFacts } from '../media/png-facts';
import { ApiError } from '../errors';
import { Code } from '../../common/api';

/** Large enough for the biggest medium the interface takes (a 300 MB lip sync video). */
export const UPLOAD_LIMIT_BYTES = 300 * 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;

const SHA_PREFIX = /^[0-9a-f]{16}$/;

class TooLarge extends Error {}

function linkOf(ctx: EmulatorContext, stored: string): { url: string; expiresAt: number } {
  return { url: ctx.files.resultUrl(stored), expiresAt: ctx.store.state.files[stored].expiresAt };
}

/**
 * `PUT /__sandbox/uploads/<name>`: the sandbox hosts a local file for the studio, as a storage bucket
 * would, so local media works offline. The body is the raw file; it must be a picture, video or sound
 * (probed with ffprobe, or a whole PNG read in this process: media/png-facts.ts) and at most UPLOAD_LIMIT_BYTES. The file is served at `/files/<stored name>`
 * for the same 7 days as results. Authenticated with the account's key like the control routes.
 *
 * A stored file is named by its content (the first 16 hex digits of its sha-256) and its name, so the
 * same picture sent again, from another worker say, is the same object and the same link; and
 * `GET /__sandbox/uploads/<name>?sha256=<16 hex>` answers that link when the sandbox holds it already,
 * so whoever asks first need not send the bytes at all.
 */
export async function uploadRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  await app.register(async (scope) => {
    // Streams the body instead of buffering it; only this scope accepts non-JSON bodies.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.get<{ Params: { name: string }; Querystring: { sha256?: string } }>(
      '/__sandbox/uploads/:name',
      async (request, reply) => {
        ctx.accounts.authenticate(request.headers);
        const { name } = request.params;
        const sha = request.query.sha256 ?? '';
        const stored = `up-${sha}-${name}`;
        if (!NAME.test(name) || !SHA_PREFIX.test(sha) || !ctx.files.liveResult(stored))
          return reply.code(404).send({ code: Code.ResourceNotFound, msg: 'No such file is stored here' });
        // Asked for again, it lives as long as a new upload would.
        ctx.files.register(stored);
        return { code: Code.Success, msg: 'OK', data: linkOf(ctx, stored) };
      },
    );

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

        const temp = join(ctx.files.workDir, `up-${randomBytes(6).toString('hex')}.part`);
        let received = 0;
        const hash = createHash('sha256');
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, next) {
            received += chunk.length;
            hash.update(chunk);
            next(received > UPLOAD_LIMIT_BYTES ? new TooLarge() : null, chunk);
          },
        });
        try {
          await pipeline(request.body as NodeJS.ReadableStream, counter, createWriteStream(temp));
          if (received === 0) throw new ApiError(Code.ParameterError, 'the uploaded file is empty');
          // A plain PNG (each campaign row's text picture) is read here; anything else by ffprobe.
          const info = (await pngFacts(temp)) ?? (await ctx.tools.probe(temp).catch(() => null));
          if (!info || !isRealMedia(info))
            throw new ApiError(
              Code.ParameterError,
              `${name} is not a picture, video or sound file that ffprobe can read`,
            );
          const stored = `up-${hash.digest('hex').slice(0, 16)}-${name}`;
          // The same bytes under the same name are the object already stored: no second copy.
          if (!ctx.files.liveResult(stored)) await rename(temp, ctx.files.resultPath(stored));
          // The stored object holds these bytes: a job that reads it takes what was just probed.
          await ctx.tools.copied(ctx.files.resultPath(stored), Promise.resolve(info));
          ctx.files.register(stored);
          return { code: Code.Success, msg: 'OK', data: { ...linkOf(ctx, stored), kind: info.kind, size: received } };
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
