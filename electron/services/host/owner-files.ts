import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { ChosenSheet } from '../../common/bridge/batches';
import type { ChosenMedia } from '../../common/bridge/media';
import { IMPORT_LIMIT_BYTES } from '../media/local-import';
import { SHEET_MAX_BYTES } from '../sheets/read-sheet';
import { StudioError } from './errors';

/** What a named file is for: a medium for a job, or a spreadsheet for a voice batch. */
export const NamedFileUse = z.enum(['media', 'sheet']);
export type NamedFileUse = z.infer<typeof NamedFileUse>;

/**
 * How the owner takes in a file a client named: the same imports its page's chosen files go through
 * (probed, checked to be media or read as a sheet, then granted), so the later bridge calls may use the
 * answered reference and nothing else. The desktop and web hosts pass their domains' importers.
 */
export interface NamedFileImporters {
  importPath(path: string): Promise<ChosenMedia>;
  importSheetPath(path: string): Promise<ChosenSheet>;
}

const LIMITS: Record<NamedFileUse, number> = { media: IMPORT_LIMIT_BYTES, sheet: SHEET_MAX_BYTES };

/**
 * Checks a path a client named before the owner opens it: absolute and already resolved (the client
 * resolved it against its own folder; the owner's folder means nothing to it), a regular file (no
 * folder, device or pipe, which a probe could hang on or leak), not empty and within the size the
 * page accepts. A refusal names the path and the reason.
 */
export async function checkNamedFile(path: string, use: NamedFileUse): Promise<void> {
  if (!isAbsolute(path) || resolve(path) !== path || path.includes('\u0000')) {
    throw new StudioError(
      `${path}: a named file must be an absolute path, resolved against the command's own folder`,
      'not-absolute',
    );
  }
  const facts = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new StudioError(
      `${path}: ${error.code === 'ENOENT' ? 'no such file' : `cannot be read (${error.code ?? error.message})`}`,
      'not-found',
    );
  });
  if (!facts.isFile())
    throw new StudioError(
      `${path} is not a regular file (${facts.isDirectory() ? 'a folder' : 'a device, pipe or socket'})`,
      'not-a-file',
    );
  if (facts.size === 0) throw new StudioError(`${path} is empty`, 'not-media');
  const limit = LIMITS[use];
  if (facts.size > limit)
    throw new StudioError(
      `${path} is larger than ${Math.round(limit / 1024 / 1024)} MB, the most the studio takes ${use === 'media' ? 'for a medium' : 'for a spreadsheet'}`,
      'too-large',
    );
}

/** Checks, then imports and grants the file the client named; answers the page's reference for it. */
export async function takeNamedFile(
  importers: NamedFileImporters,
  path: string,
  use: NamedFileUse,
): Promise<ChosenMedia | ChosenSheet> {
  await checkNamedFile(path, use);
  return use === 'media' ? importers.importPath(path) : importers.importSheetPath(path);
}
