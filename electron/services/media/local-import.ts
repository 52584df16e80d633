import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChosenMedia } from '../../common/bridge/media';
import { isRealMedia, type MediaInfo } from '../../common/composition/media-info';
import { UNSUPPORTED_PICTURES } from '../../common/composition/media-format';
import { mediaRefusal } from '../../common/composition/media-fields';
import { StudioError } from '../host/errors';
import type { LocalGrants } from './local-grants';
import type { MediaProber } from './probe';
import { makeUpright, readOrientation, type UprightDeps } from './upright';

/** The largest medium the service takes (a 300 MB lip sync video). */
export const IMPORT_LIMIT_BYTES = 300 * 1024 * 1024;

/** A readable file name for the copy: no folders, no leading dots, nothing a file system refuses. */
export function importName(name: string): string {
  const cleaned = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(-120);
  return cleaned || 'file';
}

/**
 * A file the user dropped on the page of the web host (which cannot see the file's path): its bytes are
 * streamed into `<data folder>/imports`, checked to be media, and granted like a file from a dialog.
 */
export interface ImportDeps {
  /** `<data folder>/imports`: where dropped files, and upright copies of sideways photos, are kept. */
  dir: string;
  grants: LocalGrants;
  prober: MediaProber;
  upright?: UprightDeps;
}

export async function importLocalFile(deps: ImportDeps, name: string, body: Readable): Promise<ChosenMedia> {
  const folder = join(deps.dir, randomBytes(8).toString('hex'));
  const fileName = importName(name);
  const path = join(folder, fileName);
  await mkdir(folder, { recursive: true });
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      received += chunk.length;
      next(
        received > IMPORT_LIMIT_BYTES
          ? new StudioError(`${fileName} is larger than 300 MB, the most the service accepts`, 'too-large')
          : null,
        chunk,
      );
    },
  });
  try {
    await pipeline(body, limit, createWriteStream(path));
    if (received === 0) throw new StudioError(`${fileName} is empty`, 'not-media');
    let info = await deps.prober.probe(path).catch(() => null);
    if (info) refuseUnsupported(fileName, info);
    if (!info || !isRealMedia(info))
      throw new StudioError(`${fileName} is not a picture, video or sound file`, 'not-media');
    // A photo stored sideways is taken in upright (see upright.ts), and measured again as it now is.
    if (info.kind === 'image' && info.format === 'jpeg' && deps.upright && (await makeUpright(deps.upright, path)))
      info = await deps.prober.probe(path);
    return { url: deps.grants.grant(path), name: fileName, info };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error instanceof StudioError
      ? error
      : new StudioError(`${fileName} could not be read: ${(error as Error).message}`, 'import-failed');
  }
}

/**
 * A file the host can name (a desktop dialog, a drop on the desktop app): granted where it is, after
 * the same checks as a dropped file. A photo stored sideways is the exception: the user's file is left
 * alone, and an upright copy in the imports folder is granted instead (see upright.ts).
 */
export async function importPath(deps: ImportDeps, path: string): Promise<ChosenMedia> {
  const name = basename(path);
  const info = await deps.prober.probe(path).catch(() => null);
  if (info) refuseUnsupported(name, info);
  if (!info || !isRealMedia(info)) throw new StudioError(`${name} is not a picture, video or sound file`, 'not-media');
  if (info.kind === 'image' && info.format === 'jpeg' && deps.upright && (await readOrientation(path)) !== 1)
    return importLocalFile(deps, name, createReadStream(path));
  return { url: deps.grants.grant(path), name, info };
}

/** A picture of a kind no field of the service takes (a phone's HEIC): refused, in the words every check uses. */
function refuseUnsupported(fileName: string, info: MediaInfo): void {
  if (!UNSUPPORTED_PICTURES.has(info.format)) return;
  throw new StudioError(`${fileName}: ${mediaRefusal('element-image', info)}`, 'unsupported-picture');
}
