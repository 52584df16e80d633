import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { SANDBOX_STORAGE_ID } from '../../common/bridge/storage';
import { openCliHost } from '../cli-host';
import { reachOwnerHost, type OwnerHost } from '../owner-host';
import { EXIT, RefusedError, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
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

/**
 * Through the studio that has the data folder open: each file is named to it (it checks the file and
 * takes it in as its page takes a chosen one), then its uploads link them to its active storage, all
 * or nothing. It uploads to its active storage only, so --storage must name that one.
 */
async function uploadThroughOwner(
  args: ParsedArgs,
  io: CliIo,
  owner: OwnerHost,
  paths: readonly string[],
): Promise<number> {
  const state = await owner.owner.call('storage.list');
  const named = flag(args, '--storage');
  if (named !== undefined) {
    const wanted = named.trim().toLowerCase();
    const storage =
      wanted === 'sandbox'
        ? SANDBOX_STORAGE_ID
        : state.storages.find((s) => s.id === named || s.name.toLowerCase() === wanted)?.id;
    if (storage !== state.activeId) {
      const active = state.storages.find((s) => s.id === state.activeId)?.name ?? state.activeId;
      throw new RefusedError(
        `Nothing was uploaded: the ${owner.owner.kind} that has the data folder open uploads to its active storage "${active}", not "${named}". Leave --storage out, or make "${named}" active in Settings → Storage.`,
      );
    }
  }
  if (!args.flags['--json'])
    io.err(`Uploading through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}).`);
  const references: string[] = [];
  for (const path of paths) references.push(await owner.media(path, 'FILE'));
  const uploadId = `cli-${randomUUID()}`;
  const line = progressLine(args);
  const stopProgress = owner.on(
    'uploads.progress',
    (progress) =>
      progress.uploadId === uploadId &&
      progress.phase === 'uploading' &&
      line.show(progress.doneBytes, progress.totalBytes),
  );
  const cancel = () => void owner.owner.call('uploads.cancel', uploadId).catch(() => undefined);
  process.once('SIGINT', cancel);
  try {
    const linked = await owner.owner.call('uploads.linkLocalMedia', { uploadId, value: references });
    line.end();
    return report(
      args,
      io,
      references.map((reference, i) => {
        const file = linked.files.find((f) => f.reference === reference);
        if (!file) throw new Error(`The ${owner.owner.kind} did not link ${paths[i]}`);
        return {
          file: paths[i],
          fileName: file.fileName,
          url: file.url,
          expiresAt: file.expiresAt,
          sha256: file.sha256,
          storage: state.activeId,
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
    const owner = await reachOwnerHost(args, io, { sendsWork: false });
    if (owner) return uploadThroughOwner(args, io, owner, paths).finally(() => owner.close());
    const host = openCliHost(args, io);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    try {
      const named = flag(args, '--storage');
      const storageId = named ? host.storage.storages.resolve(named) : host.storage.storages.activeId();
      const line = progressLine(args);
      const results = await host.storage.uploader.uploadAll(paths, storageId, {
        signal: interrupt.signal,
        onProgress: (phase, done, total) => phase === 'uploading' && line.show(done, total),
      });
      line.end();
      return report(
        args,
        io,
        results.map((r, i) => ({
          file: paths[i],
          fileName: r.fileName,
          url: r.url,
          expiresAt: r.expiresAt,
          sha256: r.hash,
          storage: r.storageId,
          how: r.how,
        })),
      );
    } finally {
      process.off('SIGINT', stop);
      await host.close();
    }
  },
};
