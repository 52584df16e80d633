// The one atomic write helper (projects, settings records, batches, the jobs ledger's group commit).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceFile, writeFileAtomic, type AtomicFileSystem } from '../../../electron/services/projects/atomic-file';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-'));
  dirs.push(dir);
  return dir;
}

/** Records opens, flushes and renames with paths relative to `dir` (temporary names shown as <tmp>). */
function recorder(dir: string, ops: string[], failRename = false): AtomicFileSystem {
  const name = (p: unknown) =>
    String(p)
      .replace(dir, '<dir>')
      .replace(/\.[^/]*\.[0-9a-f]{12}\.tmp$/, '<tmp>');
  return {
    open: (async (
      path: Parameters<typeof open>[0],
      flags?: Parameters<typeof open>[1],
      mode?: Parameters<typeof open>[2],
    ) => {
      const handle = await open(path, flags, mode);
      ops.push(`open ${name(path)} ${String(flags)}`);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        ops.push(`sync ${name(path)}`);
        return sync();
      };
      return handle;
    }) as typeof open,
    rename: (async (from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
      ops.push(`rename ${name(from)} -> ${name(to)}`);
      if (failRename) throw new Error('EXDEV: simulated');
      return rename(from, to);
    }) as typeof rename,
    rm,
    mkdir,
  };
}

describe('writeFileAtomic', () => {
  // Fails when the text goes straight to the target (mutation: open(path) in replaceFile), when the
  // file's flush is dropped (mutation: remove handle.sync()), or the folder's (mutation: remove syncFolder).
  it('writes a flushed temporary sibling, renames it over the file, then flushes the folder', async () => {
    const dir = scratch();
    const ops: string[] = [];
    await writeFileAtomic(join(dir, 'a', 'project.json'), '{"v":2}', { fs: recorder(dir, ops) });
    expect(ops).toEqual([
      'open <dir>/a/<tmp> w',
      'sync <dir>/a/<tmp>',
      'rename <dir>/a/<tmp> -> <dir>/a/project.json',
      'open <dir>/a r',
      'sync <dir>/a',
    ]);
    expect(readFileSync(join(dir, 'a', 'project.json'), 'utf8')).toBe('{"v":2}');
  });

  // Fails when durable: false still flushes (mutation: drop the durable checks).
  it('skips both flushes when told the write need not survive a power cut', async () => {
    const dir = scratch();
    const ops: string[] = [];
    await writeFileAtomic(join(dir, 'queue.json'), '[]', { fs: recorder(dir, ops), durable: false });
    expect(ops.filter((op) => op.startsWith('sync'))).toEqual([]);
  });

  // Fails when a failed write leaves its temporary file (mutation: remove the rm in replaceFile's catch).
  it('keeps the old content and leaves no temporary file when the rename fails', async () => {
    const dir = scratch();
    await writeFileAtomic(join(dir, 'p.json'), 'old');
    await expect(writeFileAtomic(join(dir, 'p.json'), 'new', { fs: recorder(dir, [], true) })).rejects.toThrow('EXDEV');
    expect(readFileSync(join(dir, 'p.json'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['p.json']);
  });
});

describe('replaceFile', () => {
  // Fails when the mode is not passed on (mutation: open(temp, 'w') without it): job records stay private.
  it('uses the temporary name and mode it is given and does not flush the folder', async () => {
    const dir = scratch();
    const ops: string[] = [];
    const target = join(dir, 'job.json');
    await replaceFile(target, '{}', { fs: recorder(dir, ops), tempPath: `${target}.tmp`, mode: 0o600 });
    expect(ops).toEqual([
      'open <dir>/job.json.tmp w',
      'sync <dir>/job.json.tmp',
      'rename <dir>/job.json.tmp -> <dir>/job.json',
    ]);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});
