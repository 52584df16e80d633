import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DownloadView } from '../../common/bridge/downloads';
import type { JobView } from '../../common/bridge/jobs';
import { CSV_HEADER_LINE, csvLine } from '../../common/jobs/library-csv';
import { syncFolder } from '../projects/atomic-file';
import { yieldTurn } from './queue-window';

/** Jobs read and written at a time: one keyset page of the jobs table (the bridge's MAX_PAGE_JOBS). */
export const EXPORT_PAGE_JOBS = 500;

/** The jobs the Library shows, a keyset page at a time after a cursor, and how many there are. */
export interface LibraryPages {
  count: number;
  page(after: string | null, limit: number): Promise<{ jobs: JobView[]; next: string | null }>;
}

/** What a line needs besides its job: the copies the studio recorded and the projects' names. */
export interface CsvSources {
  now: number;
  downloads(jobId: string): readonly DownloadView[];
  projectName(id: string): Promise<string | null>;
}

/**
 * Writes the Library's CSV to `target`, a page of jobs at a time: what is held is one page and the
 * names of the projects met, however many jobs there are. The file is written under a temporary name
 * beside the target, flushed, and renamed onto it only once whole, so a failure (a full disk, a folder
 * gone) leaves nothing under the final name and no half file behind. Answers how many jobs it wrote.
 */
export async function writeLibraryCsv(
  pages: LibraryPages,
  sources: CsvSources,
  target: string,
  progress: (written: number, total: number) => void = () => undefined,
): Promise<number> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  const handle = await open(temp, 'wx');
  const names = new Map<string | null, string | null>([[null, null]]);
  let written = 0;
  try {
    await handle.write(CSV_HEADER_LINE);
    let after: string | null = null;
    do {
      const page = await pages.page(after, EXPORT_PAGE_JOBS);
      for (const job of page.jobs)
        if (!names.has(job.projectId)) names.set(job.projectId, await sources.projectName(job.projectId as string));
      const context = {
        now: sources.now,
        projectName: (job: JobView) => names.get(job.projectId) ?? null,
        downloads: (job: JobView) => sources.downloads(job.id),
      };
      await handle.write(page.jobs.map((job) => csvLine(job, context)).join(''));
      written += page.jobs.length;
      progress(written, Math.max(written, pages.count));
      after = page.next;
      // Each page is a synchronous query: the host's other calls get their turn between two.
      if (after !== null) await yieldTurn();
    } while (after !== null);
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(target));
  return written;
}

/** An export the web host keeps for its page to fetch once: its file in the data folder and its name. */
export interface ExportFile {
  path: string;
  name: string;
}

const FORGOTTEN_AFTER_MS = 3_600_000;

/**
 * The web host's exports: the page cannot be given a path, so the file is written into the data
 * folder's `exports/` and fetched once at an address with an unguessable id (behind the host's token
 * like every route), then removed. Files an earlier run left unfetched are removed after an hour.
 */
export class ExportFiles {
  private readonly files = new Map<string, ExportFile & { at: number }>();

  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new file to write, its id and the name the browser saves it under. */
  async create(name: string): Promise<{ id: string } & ExportFile> {
    await mkdir(this.dir, { recursive: true });
    await this.sweep();
    const id = randomBytes(16).toString('hex');
    return { id, path: join(this.dir, `${id}.csv`), name };
  }

  /** Offered to the page once written. */
  offer(id: string, file: ExportFile): void {
    this.files.set(id, { ...file, at: this.now() });
  }

  /** The file of an id, taken: a second fetch finds nothing. */
  take(id: string): ExportFile | null {
    const file = this.files.get(id);
    this.files.delete(id);
    return file ? { path: file.path, name: file.name } : null;
  }

  /** Exports not fetched within the hour are forgotten and their files removed, this run's or an earlier's. */
  private async sweep(): Promise<void> {
    const old = this.now() - FORGOTTEN_AFTER_MS;
    for (const [id, file] of this.files) if (file.at < old) this.files.delete(id);
    const kept = new Set([...this.files.values()].map((f) => f.path));
    for (const name of await readdir(this.dir).catch(() => [])) {
      const path = join(this.dir, name);
      if (kept.has(path)) continue;
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < old) await rm(path, { force: true });
    }
  }
}
