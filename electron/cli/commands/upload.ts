import { resolve } from 'node:path';
import { openCliHost } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';

/**
 * `studio upload FILE… [--storage NAME] [--json]`: one link per file, in order. All or nothing: when one
 * file fails, the rest are cancelled and the command exits 1 naming it.
 */
export const uploadCommand: CliCommand = {
  name: 'upload',
  summary: 'Upload local media to a storage (default: the active one) and print one link per file',
  arguments: [{ name: 'FILE', help: 'local media files', required: true, variadic: true }],
  options: [{ name: '--storage', value: 'NAME', help: 'a storage from Settings (default: the active one)' }, JSON_OPTION],
  async run(args, io) {
    if (args.positional.length === 0) throw new UsageError('Give at least one file to upload');
    const host = openCliHost(args, io);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    try {
      const named = flag(args, '--storage');
      const storageId = named ? host.storage.storages.resolve(named) : host.storage.storages.activeId();
      const paths = args.positional.map((p) => resolve(io.cwd, p));
      const tty = Boolean(process.stderr.isTTY) && !args.flags['--json'];
      const results = await host.storage.uploader.uploadAll(paths, storageId, {
        signal: interrupt.signal,
        onProgress: (phase, done, total) => {
          if (!tty || phase !== 'uploading') return;
          const percent = Math.round((100 * done) / Math.max(1, total));
          process.stderr.write(`\ruploading ${percent}%   `);
        },
      });
      if (tty) process.stderr.write('\n');
      if (args.flags['--json']) {
        io.out(JSON.stringify(results.map((r, i) => ({ file: paths[i], url: r.url, expiresAt: r.expiresAt, sha256: r.hash, storage: r.storageId, how: r.how })), null, 2));
      } else {
        for (const r of results) io.out(r.url);
        for (const r of results) io.err(`${r.fileName}: ${r.how === 'uploaded' ? 'uploaded' : r.how === 'reused' ? 'already uploaded, link reused' : 'already uploaded, link renewed'}; ${r.expiresAt ? `valid until ${new Date(r.expiresAt).toISOString()}` : 'public link'}`);
      }
      return EXIT.ok;
    } finally {
      process.off('SIGINT', stop);
      await host.close();
    }
  },
};
