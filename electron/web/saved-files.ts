import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { WEB_BRIDGE_PATHS } from '../common/bridge';

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
};

/**
 * Saved copies served to the web host's own page (behind the same Host/Origin/token check as every
 * route): only a download the queue saved, and only while its file is the one written. One byte range
 * is honoured so a video can seek.
 */
export function serveSavedFiles(app: FastifyInstance, savedFile: (id: string) => Promise<string | null>): void {
  app.get<{ Params: { id: string } }>(`${WEB_BRIDGE_PATHS.saved}:id`, async (request, reply) => {
    const path = await savedFile(request.params.id);
    if (path === null)
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('This saved copy is not on disk as it was saved.\n');
    const { size } = await stat(path);
    reply
      .header('Accept-Ranges', 'bytes')
      .header('Cache-Control', 'no-store')
      .type(TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream');
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (range && (range[1] !== '' || range[2] !== '')) {
      const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(size - 1, Number(range[2]));
      if (start > end || start >= size) return reply.code(416).header('Content-Range', `bytes */${size}`).send();
      reply
        .code(206)
        .header('Content-Range', `bytes ${start}-${end}/${size}`)
        .header('Content-Length', end - start + 1);
      return reply.send(createReadStream(path, { start, end }));
    }
    reply.header('Content-Length', size);
    return reply.send(createReadStream(path));
  });
}
