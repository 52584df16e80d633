import type { LibraryExport } from '../../common/bridge/downloads';
import { WEB_BRIDGE_PATHS } from '../../common/bridge/contract';
import { StudioError } from '../host/errors';
import type { HostBase } from '../host/types';
import type { DownloadsService } from './downloads-service';
import { writeLibraryCsv, type ExportFiles, type LibraryPages } from './library-export';

/** What "Export CSV" asks of the host's records besides the downloads. */
export interface ExportSources {
  shown(query: LibraryExport): Promise<LibraryPages>;
  projectName(id: string): Promise<string | null>;
  exports: ExportFiles;
}

/**
 * "Export CSV" of the Library as shown. The desktop app asks where with its save dialog and writes
 * there (the page names no path); the web host, whose page cannot be handed a path, writes into its own
 * `exports/` folder and answers the address its page fetches the file from once. Progress goes out as
 * `downloads.exportProgress` events; a failure says what failed and leaves no file under the name.
 */
export async function exportCsv(
  base: Pick<HostBase, 'platform' | 'emit' | 'log'>,
  service: Pick<DownloadsService, 'manager' | 'now'>,
  sources: ExportSources | undefined,
  query: LibraryExport,
): Promise<{ count: number; savedTo: string | null; url: string | null } | null> {
  if (!sources) throw new StudioError('This host cannot export the Library.', 'unsupported');
  const name = `library-${new Date(service.now()).toISOString().slice(0, 10)}.csv`;
  const { chooseSavePath } = base.platform;
  const chosen = chooseSavePath
    ? await chooseSavePath({ title: 'Export the Library as CSV', defaultName: name, extensions: ['csv'] })
    : null;
  if (chooseSavePath && chosen === null) return null;
  const offered = chosen === null ? await sources.exports.create(name) : null;
  const target = chosen ?? (offered as { path: string }).path;
  const pages = await sources.shown(query);
  const csvSources = {
    now: service.now(),
    downloads: (jobId: string) => service.manager.forJob(jobId),
    projectName: (id: string) => sources.projectName(id),
  };
  let count: number;
  try {
    count = await writeLibraryCsv(pages, csvSources, target, (written, total) =>
      base.emit('downloads.exportProgress', { written, total }),
    );
  } catch (error) {
    base.log.warn('the Library was not exported', { error: String(error) });
    const where = chosen === null ? '' : ` Nothing was written to ${chosen}.`;
    throw new StudioError(`The export failed: ${(error as Error).message}.${where}`, 'export-failed');
  }
  if (!offered) return { count, savedTo: chosen, url: null };
  sources.exports.offer(offered.id, offered);
  return { count, savedTo: null, url: `${WEB_BRIDGE_PATHS.exports}${offered.id}` };
}
