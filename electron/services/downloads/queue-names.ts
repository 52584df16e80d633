import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { DownloadEntry } from '../../common/bridge/downloads';
import { pickFreeName } from '../../common/file-names';
import { partPath } from './fetch-to-file';

/** What a download is asked for: a job's link, the folder chosen and the templated name in it. */
export interface EnqueueRequest {
  jobId: string;
  url: string;
  folder: string;
  /** The templated, sanitised name ("a/b.mp4"); a numbered suffix is added when it is taken. */
  relativeName: string;
  origin: DownloadEntry['origin'];
  batchId?: string | null;
  /**
   * The name is the asker's own (a campaign's row file, a batch's, `--out FILE`): kept as asked, never
   * numbered, and the verified file replaces what is there when it takes the name.
   */
  exact?: boolean;
}

/** States in which a download no longer holds its name (a saved one holds it only by its file). */
export const FINISHED: ReadonlySet<DownloadEntry['state']> = new Set([
  'saved',
  'failed',
  'cancelled',
  'missing',
  'changed',
]);

/** The absolute path, refusing anything that would land outside the chosen folder. */
export function targetOf(folder: string, relativeName: string): string {
  const target = resolve(folder, relativeName);
  const inside = relative(folder, target);
  if (inside === '' || inside.startsWith('..') || inside.startsWith(sep) || resolve(folder, inside) !== target) {
    throw new Error(`The name "${relativeName}" would leave the folder ${folder}.`);
  }
  return target;
}

/** The names downloads in flight hold, by folder: see freeName. Built once for a whole call's names. */
export function heldNames(entries: Iterable<DownloadEntry>): Set<string> {
  const held = new Set<string>();
  for (const e of entries) if (!FINISHED.has(e.state)) held.add(nameKey(e.folder, e.relativeName));
  return held;
}

export const nameKey = (folder: string, relativeName: string): string => `${folder}\0${relativeName}`;

/**
 * The requested name, or the first numbered one that no file, `.part` or download in flight of the queue
 * (`held`, from heldNames) holds in that folder. `own` is a name the asker already holds (a rename keeps
 * its own name free).
 */
export function freeName(held: ReadonlySet<string>, folder: string, requested: string, own?: string): Promise<string> {
  return pickFreeName(requested, async (candidate) => {
    if (candidate === own) return false;
    if (held.has(nameKey(folder, candidate))) return true;
    const target = targetOf(folder, candidate);
    return (await exists(target)) || (await exists(partPath(target)));
  });
}

/** Whether a file or its `.part` holds this name in the folder (a name that would leave it: taken). */
export async function takenOnDisk(folder: string, name: string): Promise<boolean> {
  let target: string;
  try {
    target = targetOf(folder, name);
  } catch {
    return true;
  }
  return (await exists(target)) || (await exists(partPath(target)));
}

/**
 * The name a new download gets: exactly the one asked for (a writer that owns its name), or a free one.
 * Either way it is then held, for the other names of the same call.
 */
export async function nameFor(request: EnqueueRequest, folder: string, held: Set<string>): Promise<string> {
  const name = request.exact
    ? relative(folder, targetOf(folder, request.relativeName))
    : await freeName(held, folder, request.relativeName);
  held.add(nameKey(folder, name));
  return name;
}

/** A new queued download, nothing fetched yet. */
export function newEntry(request: EnqueueRequest, folder: string, relativeName: string, at: number): DownloadEntry {
  return {
    id: randomUUID(),
    jobId: request.jobId,
    url: request.url,
    folder,
    relativeName,
    requestedName: request.relativeName,
    state: 'queued',
    reason: null,
    ...REFETCH_RESET,
    refetchedAt: null,
    origin: request.origin,
    batchId: request.batchId ?? null,
    createdAt: at,
    updatedAt: at,
  };
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

/** What a copy fetched again forgets of the file it had: it starts from nothing under its name. */
export const REFETCH_RESET = {
  bytes: 0,
  totalBytes: null,
  etag: null,
  lastModified: null,
  attempts: 0,
  savedPath: null,
  sha256: null,
  mtimeMs: null,
  verifiedAt: null,
} satisfies Partial<DownloadEntry>;
