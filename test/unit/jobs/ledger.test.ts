import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { FileLedgerStorage, type LedgerFileSystem } from '../../../electron/services/jobs/ledger';
import type { JobRecord } from '../../../electron/common/bridge/jobs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function journalLines(dir: string): { put?: JobRecord; remove?: string }[] {
  return readFileSync(join(dir, 'ledger.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { put?: JobRecord });
}

/**
 * The real file operations, each written down as it happens ("<dir>" for the folder). `fail` makes a
 * handle operation throw instead, after `partial` (if given) has done part of its work.
 */
function recordingFs(
  dir: string,
  ops: string[],
  fault?: { op: 'appendFile' | 'datasync'; error: NodeJS.ErrnoException; partial?: boolean },
): LedgerFileSystem {
  const name = (p: unknown) => String(p).replace(dir, '<dir>');
  let armed = fault !== undefined;
  return {
    open: async (
      path: Parameters<typeof open>[0],
      flags?: Parameters<typeof open>[1],
      mode?: Parameters<typeof open>[2],
    ) => {
      const handle = await open(path, flags, mode);
      ops.push(`open ${name(path)} ${String(flags)}`);
      return new Proxy(handle, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            if (armed && fault && prop === fault.op) {
              armed = false;
              if (fault.partial) await target.appendFile(String(args[0]).slice(0, 40));
              ops.push(`${String(prop)} failed`);
              throw fault.error;
            }
            if (['sync', 'datasync', 'appendFile', 'writeFile', 'truncate', 'close'].includes(String(prop)))
              ops.push(`${String(prop)} ${name(path)}`);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    },
    rename: async (from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
      ops.push(`rename ${name(from)} -> ${name(to)}`);
      return rename(from, to);
    },
    rm: async (path: Parameters<typeof rm>[0], options?: Parameters<typeof rm>[1]) => {
      ops.push(`rm ${name(path)}`);
      return rm(path, options);
    },
    mkdir,
  } as unknown as LedgerFileSystem;
}

function record(id: string, phase: JobRecord['phase'] = 'submitting'): JobRecord {
  return {
    id,
    kind: 'tts',
    phase,
    remoteId: null,
    connectionId: 'c',
    connectionName: 'C',
    projectId: null,
    summary: 's',
    requestHash: 'h',
    request: { input_text: 'x' },
    createdAt: 1,
    updatedAt: 1,
    finishedAt: null,
    expiresAt: null,
    deadlineAt: 2,
    remoteStatus: null,
    resultUrl: null,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 0,
    purpose: { type: 'plain' },
    reactedAt: null,
  };
}

describe('FileLedgerStorage', () => {
  it('appends changes to one journal, folds queued updates of a job into its newest, and reads them back', async () => {
    const dir = tempDir('ledger-');
    const ledger = new FileLedgerStorage(join(dir, 'jobs'));
    await ledger.put(record('a'));
    const writes = [
      ledger.put(record('b', 'queued')),
      ledger.put(record('b', 'processing')),
      ledger.put(record('b', 'completed')),
    ];
    await Promise.all(writes);
    await ledger.flush();
    expect(readdirSync(join(dir, 'jobs'))).toEqual(['ledger.jsonl']);
    expect(journalLines(join(dir, 'jobs')).map((l) => `${l.put?.id}:${l.put?.phase}`)).toEqual([
      'a:submitting',
      'b:completed',
    ]);
    const again = new FileLedgerStorage(join(dir, 'jobs'));
    expect(
      again
        .loadAll()
        .map((r) => `${r.id}:${r.phase}`)
        .sort(),
    ).toEqual(['a:submitting', 'b:completed']);
    await again.remove('a');
    expect(again.loadAll().map((r) => r.id)).toEqual(['b']);
  });

  // Fails when readers take a line still being written (mutation: keep the text after the last newline),
  // or when the writer appends after a torn line (mutation: drop the truncate in openJournal), which glues
  // the next record to it and loses it.
  it('skips a line cut off by a crash, and the next writer cuts it away before appending', async () => {
    const dir = tempDir('ledger-torn-');
    const good = JSON.stringify({ put: record('kept', 'queued') });
    writeFileSync(join(dir, 'ledger.jsonl'), `${good}\n{"put":{"id":"torn","kind":"tts","pha`);
    const notices: unknown[] = [];
    expect(new FileLedgerStorage(dir, undefined, undefined, (n) => notices.push(n)).loadAll().map((r) => r.id)).toEqual(
      ['kept'],
    );
    await new FileLedgerStorage(dir).put(record('after', 'queued'));
    expect(
      new FileLedgerStorage(dir, undefined, undefined, (n) => notices.push(n))
        .loadAll()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['after', 'kept']);
    expect(notices).toEqual([]);
    expect(existsSync(join(dir, 'ledger.unreadable.jsonl'))).toBe(false);
  });

  // Fails when a damaged line is dropped silently (mutation: skip setAsideLine), or reported at every
  // start (mutation: drop the "already kept" check).
  it('keeps a damaged journal line aside and tells the user once, with what it still says', () => {
    const dir = tempDir('ledger-damaged-');
    const typed = JSON.stringify({
      put: { ...record('typed'), phase: 42, remoteId: 'svc-7', summary: 'Speech · voice Ava · "Hi"' },
    });
    const lines = [
      JSON.stringify({ put: record('first') }),
      '\u0000\u0000garbage{',
      typed,
      JSON.stringify({ put: record('last') }),
    ];
    writeFileSync(join(dir, 'ledger.jsonl'), `${lines.join('\n')}\n`);
    const notices: { title: string; detail?: string }[] = [];
    const read = () =>
      new FileLedgerStorage(dir, undefined, undefined, (n) => notices.push(n))
        .loadAll()
        .map((r) => r.id)
        .sort();
    expect(read()).toEqual(['first', 'last']);
    expect(notices.map((n) => n.title)).toEqual([
      'A job record could not be read and was set aside',
      'A job record could not be read and was set aside',
    ]);
    expect(notices[1].detail).toMatch(/request: Speech · voice Ava · "Hi"; .*service id: svc-7/);
    expect(readFileSync(join(dir, 'ledger.unreadable.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(read()).toEqual(['first', 'last']);
    expect(notices).toHaveLength(2);
  });

  // Fails when a line is set aside silently (mutation: drop the notify call in setAsideLine), or when
  // what can be read of a cut-off line is not looked for (mutation: drop the text search in describeRecoverable).
  it('tells the user about a line it set aside, with what can still be read of the paid job', () => {
    const dir = tempDir('ledger-recover-');
    // Valid JSON but not a record (a field of the wrong type), and a line cut off mid-write that a later line followed.
    const typed = JSON.stringify({
      put: {
        ...record('typed'),
        phase: 42,
        remoteId: 'svc-123',
        resultUrl: 'https://files.example/r.mp4',
        summary: 'Speech · voice Ava · "Hi"',
      },
    });
    const cut = '{"put":{"id":"cut","kind":"lipsync","remoteId":"svc-\\"9","createdAt":1763800000000,"resultUr';
    writeFileSync(join(dir, 'ledger.jsonl'), `${typed}\n${cut}\n${JSON.stringify({ put: record('fine') })}\n`);
    const notices: { title: string; detail?: string }[] = [];
    expect(new FileLedgerStorage(dir, undefined, undefined, (n) => notices.push(n)).loadAll().map((r) => r.id)).toEqual(
      ['fine'],
    );
    const details = notices.map((n) => n.detail ?? '');
    expect(notices.every((n) => n.title === 'A job record could not be read and was set aside')).toBe(true);
    expect(details).toHaveLength(2);
    expect(details.find((d) => d.includes('svc-123'))).toMatch(
      /request: Speech · voice Ava · "Hi"; sent to: .*service id: svc-123; result: https:\/\/files\.example\/r\.mp4/,
    );
    expect(details.find((d) => d.includes('lipsync'))).toMatch(
      /kind: lipsync; service id: svc-\\"9; created: 2025-11-22T/,
    );
  });

  it('refuses ids that could escape its folder', async () => {
    const ledger = new FileLedgerStorage(tmpdir());
    await expect(ledger.put(record('../x'))).rejects.toThrow(/Invalid job id/);
  });
});

describe('ledger writes are durable before they settle', () => {
  // Fails when a put settles before its line is flushed (mutation: resolve the waiters before
  // datasync()), or when a new journal's name is not flushed (mutation: drop the syncFolder in openJournal).
  it('appends the line, fdatasyncs the journal, and only then settles; a new journal flushes its folder first', async () => {
    const dir = tempDir('ledger-ops-');
    const ops: string[] = [];
    const ledger = new FileLedgerStorage(join(dir, 'jobs'), undefined, recordingFs(dir, ops));
    await ledger.put(record('job-1'));
    ops.push('put settled');
    expect(ops).toEqual([
      'open <dir>/jobs/ledger.jsonl a',
      'open <dir>/jobs r',
      'sync <dir>/jobs',
      'close <dir>/jobs',
      'appendFile <dir>/jobs/ledger.jsonl',
      'datasync <dir>/jobs/ledger.jsonl',
      'put settled',
    ]);
  });

  // Fails when each record is written and flushed on its own (mutation: one batch per put), or when a
  // put settles before its batch's flush.
  it('group-commits records changed together: one append, one flush, and every put settles after it', async () => {
    const dir = tempDir('ledger-batch-');
    const ops: string[] = [];
    const ledger = new FileLedgerStorage(join(dir, 'jobs'), undefined, recordingFs(dir, ops));
    await ledger.put(record('first'));
    ops.length = 0;
    await Promise.all(['a', 'b', 'c'].map((id) => ledger.put(record(id)).then(() => ops.push(`settled ${id}`))));
    expect(ops).toEqual([
      'appendFile <dir>/jobs/ledger.jsonl',
      'datasync <dir>/jobs/ledger.jsonl',
      'settled a',
      'settled b',
      'settled c',
    ]);
    expect(
      new FileLedgerStorage(join(dir, 'jobs'))
        .loadAll()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'first']);
  });

  // Fails when a failed batch is left in the journal (mutation: drop the truncate in append()): a full
  // disk's half line would swallow the next record, and a line whose flush failed would come back after
  // a restart as a job that may have been sent although its create never left.
  it.each([
    [
      'a full disk mid-write',
      {
        op: 'appendFile' as const,
        error: Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
        partial: true,
      },
    ],
    ['a failed flush', { op: 'datasync' as const, error: Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }) }],
  ])('rejects the puts of a failed batch and cuts their lines away (%s)', async (_label, fault) => {
    const dir = tempDir('ledger-fail-');
    const ops: string[] = [];
    const ledger = new FileLedgerStorage(dir, undefined, recordingFs(dir, [], undefined));
    await ledger.put(record('before'));
    const failing = new FileLedgerStorage(dir, undefined, recordingFs(dir, ops, fault));
    await expect(failing.put(record('refused'))).rejects.toThrow(fault.error.message);
    await failing.put(record('after'));
    expect(
      new FileLedgerStorage(dir)
        .loadAll()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['after', 'before']);
    expect(existsSync(join(dir, 'ledger.unreadable.jsonl'))).toBe(false);
  });

  // Fails when the journal keeps growing with history (mutation: worthCompacting always false), or is
  // replaced other than atomically (mutation: write it in place instead of replaceFile).
  it('rewrites a journal that is mostly history with the newest line of each job, atomically', async () => {
    const dir = tempDir('ledger-compact-');
    const ops: string[] = [];
    const ledger = new FileLedgerStorage(dir, undefined, recordingFs(dir, ops));
    const big = (id: string, polls: number): JobRecord => ({
      ...record(id, 'processing'),
      request: { input_text: 'x'.repeat(100_000) },
      polls,
    });
    for (let i = 0; i < 14; i += 1) await ledger.put(big(i % 2 === 0 ? 'even' : 'odd', i));
    await ledger.flush();
    expect(statSync(join(dir, 'ledger.jsonl')).size).toBeLessThan(1_000_000);
    expect(ops).toContain('rename <dir>/ledger.jsonl.tmp -> <dir>/ledger.jsonl');
    expect(ops.indexOf('sync <dir>/ledger.jsonl.tmp')).toBeLessThan(
      ops.indexOf('rename <dir>/ledger.jsonl.tmp -> <dir>/ledger.jsonl'),
    );
    await ledger.put(big('odd', 99));
    expect(
      new FileLedgerStorage(dir)
        .loadAll()
        .map((r) => `${r.id}:${r.polls}`)
        .sort(),
    ).toEqual(['even:12', 'odd:99']);
  });
});
