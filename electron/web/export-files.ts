import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { WEB_BRIDGE_PATHS } from '../common/bridge';
import type { ExportFile } from '../services/downloads/library-export';

/**
 * The Library's "Export CSV" handed to the web host's page (behind the same Host/Origin/token check as
 * every route): the file the host wrote into its `exports/` folder, under an unguessable id, sent once
 * as an attachment and removed once sent.
 */
export function serveExportFiles(app: FastifyInstance, exportFile: (id: string) => Promise<ExportFile | null>): void {
  app.get<{ Params: { id: string } }>(`${WEB_BRIDGE_PATHS.exports}:id`, async (request, reply) => {
    const id = request.params.id;
    const file = /^[0-9a-f]{32}$/.test(id) ? await exportFile(id) : null;
    const size = file
      ? await stat(file.path).then(
          (s) => s.size,
          () => null,
        )
      : null;
    if (file === null || size === null)
      return reply.code(404).type('text/plain; charset=utf-8').send('This export was fetched already, or is gone.\n');
    const stream = createReadStream(file.path);
    stream.on('close', () => void rm(file.path, { force: true }));
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"`)
      .header('Content-Length', size)
      .type('text/csv; charset=utf-8')
      .send(stream);
  });
}
