import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChosenSheet } from '../../common/bridge/batches';
import { readSheetFile, SheetRefusal, type SheetLimits } from './read-sheet';

export interface SheetImportDeps {
  /** `<data folder>/imports`, where a page's spreadsheet is written (it cannot name the file's path). */
  dir: string;
  /** Grants the host's reading of a file the user chose, returning the reference the page may use. */
  grant: (path: string) => string;
  limits: Required<SheetLimits>;
}

/**
 * A spreadsheet the user picked on a page that cannot name its path (the web host): streamed to the
 * imports folder (no request-body limit applies, only the stated size limit), read once to refuse what
 * is not a table, and granted. The rows are read again, from the file, by whatever uses it.
 */
export async function importSheet(deps: SheetImportDeps, name: string, body: Readable): Promise<ChosenSheet> {
  const fileName =
    basename(name.replace(/\\/g, '/'))
      .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
      .replace(/^\.+/, '')
      .slice(-120) || 'sheet.csv';
  const folder = join(deps.dir, randomBytes(8).toString('hex'));
  const path = join(folder, fileName);
  await mkdir(folder, { recursive: true });
  let received = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      received += chunk.length;
      const over = received > deps.limits.maxBytes;
      next(
        over
          ? new SheetRefusal(
              `${fileName} is larger than ${Math.round(deps.limits.maxBytes / 1024 / 1024)} MB, the most a spreadsheet here can be.`,
              'sheet-too-big',
            )
          : null,
        chunk,
      );
    },
  });
  try {
    await pipeline(body, cap, createWriteStream(path));
    return await chosenSheet(deps, path);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** A spreadsheet the host can name (a desktop dialog or drop): read in place, and granted. */
export async function importSheetPath(
  deps: Pick<SheetImportDeps, 'grant' | 'limits'>,
  path: string,
): Promise<ChosenSheet> {
  return chosenSheet(deps, path);
}

async function chosenSheet(deps: Pick<SheetImportDeps, 'grant' | 'limits'>, path: string): Promise<ChosenSheet> {
  const table = await readSheetFile(path, deps.limits);
  return { url: deps.grant(path), name: basename(path), lines: table.rows.length, readAs: table.readAs };
}
