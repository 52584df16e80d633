import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { SANDBOX_STORAGE_ID } from '../../common/bridge/storage';
import { OwnerCallError } from '../../services/host/owner-client';
import { sayWhere, withStudio } from '../cli-host';
import type { StudioLink } from '../studio-link';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';

/** One uploaded file, as both ways of uploading report it. */
interface Uploaded {
  file: string;
  fileName: string;
  url: string;
  expiresAt: number | null;
  sha256: string;
  storage: string;
  how: 'uploaded' | 'reused' | 'relinked';
}

function report(args: ParsedArgs, io: CliIo, results: readonly Uploaded[]): number {
  if (args.flags['--json']) {
    io.out(
      JSON.stringify(
        results.map(({ fileName: _name, ...rest }) => rest),
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  for (const r of results) io.out(r.url);
  for (const r of results)
    io.err(
      `${r.fileName}: ${r.how === 'uploaded' ? 'uploaded' : r.how === 'reused' ? 'already uploaded, link reused' : 'already uploaded, link renewed'}; ${r.expiresAt ? `valid until ${new Date(r.expiresAt).toISOString()}` : 'public link'}`,
    );
  return EXIT.ok;
}

/** A percentage on one terminal line; nothing when not a terminal or with --json. */
function progressLine(args: ParsedArgs): { show(done: number, total: number): void; end(): void } {
  const tty = Boolean(process.stderr.isTTY) && !args.flags['--json'];
  let shown = false;
  return {
    show(done, total) {
      if (!tty) return;
      shown = true;
      process.stderr.write(`\ruploading ${Math.round((100 * done) / Math.max(1, total))}%   `);
    },
    end: () => shown && void process.stderr.write('\n'),
  };
}

/** The storage --storage names (by name or id, "sandbox" for the built-in one), or the active one. */
async function storageOf(args: ParsedArgs, studio: StudioLink): Promise<string> {
  const state = await studio.call('storage.list');
  const named = flag(args, '--storage');
  if (named === undefined) return state.activeId;
  const wanted = named.trim().toLowerCase();
  const storage =
    wanted === 'sandbox'
      ? SANDBOX_STORAGE_ID
      : state.storages.find((s) => s.id === named || s.name.toLowerCase() === wanted)?.id;
  if (!storage)
    throw new UsageError(
      `No storage named "${named}" (see Settings → Storage); known: ${state.storages.map((s) => s.name).join(', ')}`,
    );
  return storage;
}

/**
 * Each file is named to the studio (it checks the file and takes it in as its page takes a chosen one),
 * then its uploads link them to the storage, all or nothing; the user's active storage stays as it is.
 */
async function uploadFiles(args: ParsedArgs, io: CliIo, studio: StudioLink, paths: readonly string[]): Promise<number> {
  const storage = await storageOf(args, studio);
  sayWhere(studio, args, io, 'Uploading');
  const references: string[] = [];
  for (const path of paths) {
    const chosen = await studio.nameFile(path, 'media').catch((error: unknown) => {
      if (error instanceof OwnerCallError && error.code !== 'not-served')
        throw new Error(`Could not upload ${basename(path)}: ${error.message}`);
      throw error;
    });
    references.push(chosen.url);
  }
  const uploadId = `cli-${randomUUID()}`;
  const line = progressLine(args);
  const stopProgress = studio.on(
    'uploads.progress',
    (progress) =>
      progress.uploadId === uploadId &&
      progress.phase === 'uploading' &&
      line.show(progress.doneBytes, progress.totalBytes),
  );
  const cancel = () => void studio.call('uploads.cancel', uploadId).catch(() => undefined);
  process.once('SIGINT', cancel);
  try {
    const linked = await studio.call('uploads.linkLocalMedia', { uploadId, value: references, storage });
    line.end();
    return report(
      args,
      io,
      references.map((reference, i) => {
        const file = linked.files.find((f) => f.reference === reference);
        if (!file) throw new Error(`The ${studio.kind} did not link ${paths[i]}`);
        return {
          file: paths[i],
          fileName: file.fileName,
          url: file.url,
          expiresAt: file.expiresAt,
          sha256: file.sha256,
          storage,
          how: file.how,
        };
      }),
    );
  } finally {
    stopProgress();
    process.off('SIGINT', cancel);
  }
}

/**
 * `studio upload FILE… [--storage NAME] [--json]`: one link per file, in order. All or nothing: when one
 * file fails, the rest are cancelled and the command exits 1 naming it.
 */
export const uploadCommand: CliCommand = {
  name: 'upload',
  summary: 'Upload local media to a storage (default: the active one) and print one link per file',
  arguments: [{ name: 'FILE', help: 'local media files', required: true, variadic: true }],
  options: [
    { name: '--storage', value: 'NAME', help: 'a storage from Settings (default: the active one)' },
    JSON_OPTION,
  ],
  async run(args, io) {
    if (args.positional.length === 0) throw new UsageError('Give at least one file to upload');
    const paths = args.positional.map((p) => resolve(io.cwd, p));
    return withStudio(args, io, 'writes', (studio) => uploadFiles(args, io, studio, paths), { sendsWork: false });
  },
};
