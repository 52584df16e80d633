import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function record(id: string, phase: JobRecord['phase'] = 'submitting'): JobRecord {
  return {
    id, kind: 'tts', phase, remoteId: null, connectionId: 'c', connectionName: 'C', projectId: null, summary: 's', requestHash: 'h',
    request: { input_text: 'x' }, createdAt: 1, updatedAt: 1, finishedAt: null, expiresAt: null, deadlineAt: 2, remoteStatus: null,
    resultUrl: null, costEstimate: null, chargedCredits: null, error: null, answer: null, polls: 0, purpose: { type: 'plain' }, reactedAt: null,
  };
}

describe('FileLedgerStorage', () => {
  it('writes one file per job, folds queued updates into the newest, and reads them back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    dirs.push(dir);
    const ledger = new FileLedgerStorage(join(dir, 'jobs'));
    await ledger.put(record('a'));
    const writes = [ledger.put(record('b', 'queued')), ledger.put(record('b', 'processing')), ledger.put(record('b', 'completed'))];
    await Promise.all(writes);
    await ledger.flush();
    expect(readdirSync(join(dir, 'jobs')).sort()).toEqual(['a.json', 'b.json']);
    expect(JSON.parse(readFileSync(join(dir, 'jobs', 'b.json'), 'utf8')).phase).toBe('completed');
    const again = new FileLedgerStorage(join(dir, 'jobs'));
    expect(again.loadAll().map((r) => `${r.id}:${r.phase}`).sort()).toEqual(['a:submitting', 'b:completed']);
    await again.remove('a');
    expect(again.loadAll().map((r) => r.id)).toEqual(['b']);
  });

  it('sets an unreadable record aside instead of failing or hiding the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'good.json'), JSON.stringify(record('good')));
    writeFileSync(join(dir, 'bad.json'), '{"id": "bad", "phase"');
    const ledger = new FileLedgerStorage(dir);
    expect(ledger.loadAll().map((r) => r.id)).toEqual(['good']);
    expect(readdirSync(dir).sort()).toEqual(['bad.json.unreadable', 'good.json']);
  });

  // Fails when a record is set aside silently (mutation: drop the notify call in loadAll).
  it('tells the user about a record it set aside, with what can still be read of the paid job', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    dirs.push(dir);
    // Valid JSON but not a record (a field of the wrong type), and a file cut off mid-write.
    writeFileSync(join(dir, 'typed.json'), JSON.stringify({ ...record('typed'), phase: 42, remoteId: 'svc-123', resultUrl: 'https://files.example/r.mp4', summary: 'Speech · voice Ava · "Hi"' }));
    writeFileSync(join(dir, 'cut.json'), '{"id":"cut","kind":"lipsync","remoteId":"svc-\\"9","createdAt":1763800000000,"resultUr');
    writeFileSync(join(dir, 'empty.json'), '');
    const notices: { title: string; detail?: string }[] = [];
    expect(new FileLedgerStorage(dir, undefined, undefined, (n) => notices.push(n)).loadAll()).toEqual([]);
    const details = notices.map((n) => n.detail ?? '').sort();
    expect(notices.every((n) => n.title === 'A job record could not be read and was set aside')).toBe(true);
    expect(details).toHaveLength(3);
    expect(details.find((d) => d.includes('typed.json'))).toMatch(/request: Speech · voice Ava · "Hi"; sent to: .*service id: svc-123; result: https:\/\/files\.example\/r\.mp4/);
    expect(details.find((d) => d.includes('cut.json'))).toMatch(/kind: lipsync; service id: svc-\\"9; created: 2025-11-22T/);
    expect(details.find((d) => d.includes('empty.json'))).toMatch(/Nothing of it could be read/);
  });

  it('refuses ids that could escape its folder', async () => {
    const ledger = new FileLedgerStorage(tmpdir());
    await expect(ledger.put(record('../x'))).rejects.toThrow(/Invalid job id/);
  });
});

describe('ledger writes are atomic and durable', () => {
  // Fails when a write goes straight to the final name (mutation: open(target) instead of the temp file),
  // or when a sync is dropped (mutation: remove handle.sync() or syncDir()).
  it('writes a temporary file, fsyncs it, renames it over the record, then fsyncs the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-ops-'));
    dirs.push(dir);
    const ops: string[] = [];
    const name = (p: unknown) => String(p).replace(dir, '<dir>');
    const recorder = {
      open: async (path: Parameters<typeof open>[0], flags?: Parameters<typeof open>[1], mode?: Parameters<typeof open>[2]) => {
        const handle = await open(path, flags, mode);
        ops.push(`open ${name(path)} ${String(flags)}`);
        return new Proxy(handle, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (prop === 'sync' || prop === 'writeFile' || prop === 'close') ops.push(`${String(prop)} ${name(path)}`);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
      },
      rename: async (from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
        ops.push(`rename ${name(from)} -> ${name(to)}`);
        return rename(from, to);
      },
      rm,
      mkdir,
    } as unknown as LedgerFileSystem;
    const ledger = new FileLedgerStorage(join(dir, 'jobs'), undefined, recorder);
    await ledger.put(record('job-1'));
    ops.push('put settled');
    await ledger.flush();
    expect(ops).toEqual([
      'open <dir>/jobs/job-1.json.tmp w',
      'writeFile <dir>/jobs/job-1.json.tmp',
      'sync <dir>/jobs/job-1.json.tmp',
      'close <dir>/jobs/job-1.json.tmp',
      'rename <dir>/jobs/job-1.json.tmp -> <dir>/jobs/job-1.json',
      'open <dir>/jobs r',
      'sync <dir>/jobs',
      'close <dir>/jobs',
      'put settled',
    ]);
  });

  // Fails when a put settles before the folder fsync of its batch (mutation: resolve the waiters before
  // syncDir()), or when each record syncs the folder on its own (mutation: syncDir() inside the loop).
  it('group-commits records changed together: one folder fsync, and every put settles after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-batch-'));
    dirs.push(dir);
    const ops: string[] = [];
    const recorder = {
      open: async (path: Parameters<typeof open>[0], flags?: Parameters<typeof open>[1], mode?: Parameters<typeof open>[2]) => {
        const handle = await open(path, flags, mode);
        if (flags === 'r') ops.push('sync folder');
        return handle;
      },
      rename: async (from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
        ops.push('rename');
        return rename(from, to);
      },
      rm,
      mkdir,
    } as unknown as LedgerFileSystem;
    const ledger = new FileLedgerStorage(join(dir, 'jobs'), undefined, recorder);
    await Promise.all(['a', 'b', 'c'].map((id) => ledger.put(record(id)).then(() => ops.push(`settled ${id}`))));
    expect(ops).toEqual(['rename', 'rename', 'rename', 'sync folder', 'settled a', 'settled b', 'settled c']);
    expect(new FileLedgerStorage(join(dir, 'jobs')).loadAll().map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
  });
});
