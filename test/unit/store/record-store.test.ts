import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Notice } from '@common/bridge';
import type { RecordStoreSpec } from '../../../electron/services/host/types';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { createMemoryStoreFactory, MemoryRecordFiles } from '../../../electron/services/store/memory-store';
import { MemoryVault } from '../../../electron/services/store/memory-vault';
import { writePendingRecords } from '../../../electron/services/store/record-store';
import { composeHost } from '../../../electron/services/host/compose';

const Prefs = z.object({ volume: z.number().min(0).max(1), name: z.string() });
type Prefs = z.infer<typeof Prefs>;
const spec: RecordStoreSpec<Prefs> = {
  name: 'prefs',
  schema: Prefs,
  defaults: { volume: 0.5, name: 'default' },
  version: 2,
  migrations: {
    // v0 stored volume in percent, v1 called the name "title".
    0: (old) => ({ ...(old as object), volume: (old as { volume: number }).volume / 100 }),
    1: (old) => {
      const { title, ...rest } = old as { title: string };
      return { ...rest, name: title };
    },
  },
};

function deps() {
  const notices: Notice[] = [];
  const log = new MemoryLogger();
  return {
    notices,
    log,
    deps: { log, notify: (n: Notice) => notices.push(n), now: () => new Date('2026-01-02T03:04:05Z') },
  };
}

describe('conf-backed record store', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'studio-store-'));

  it('starts from defaults, writes a versioned file, and reads it back in a new instance', () => {
    const d = dir();
    const store = createConfStoreFactory(d, deps().deps)(spec);
    expect(store.get()).toEqual(spec.defaults);
    store.set({ volume: 0.9, name: 'mine' });
    expect(JSON.parse(readFileSync(join(d, 'prefs.json'), 'utf8'))).toEqual({
      version: 2,
      data: { volume: 0.9, name: 'mine' },
    });
    expect(createConfStoreFactory(d, deps().deps)(spec).get()).toEqual({ volume: 0.9, name: 'mine' });
  });

  it('runs every migration from an old version and saves the result', () => {
    const d = dir();
    writeFileSync(join(d, 'prefs.json'), JSON.stringify({ version: 0, data: { volume: 40, title: 'old' } }));
    const store = createConfStoreFactory(d, deps().deps)(spec);
    expect(store.get()).toEqual({ volume: 0.4, name: 'old' });
    expect(JSON.parse(readFileSync(join(d, 'prefs.json'), 'utf8')).version).toBe(2);
  });

  it('moves a file that is not JSON aside with a notice and keeps its bytes', () => {
    const d = dir();
    writeFileSync(join(d, 'prefs.json'), '{"version": 2, "data": {');
    const { notices, deps: dd } = deps();
    const store = createConfStoreFactory(d, dd)(spec);
    expect(store.get()).toEqual(spec.defaults);
    const aside = readdirSync(d).filter((f) => f.startsWith('prefs.corrupt-'));
    expect(aside).toEqual(['prefs.corrupt-2026-01-02T03-04-05-000Z.json']);
    expect(readFileSync(join(d, aside[0]), 'utf8')).toBe('{"version": 2, "data": {');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 'warning', title: expect.stringContaining('prefs') });
    expect(notices[0].detail).toContain(aside[0]);
  });

  it('moves a schema-invalid file aside, naming the bad field', () => {
    const d = dir();
    writeFileSync(join(d, 'prefs.json'), JSON.stringify({ version: 2, data: { volume: 7, name: 'x' } }));
    const { notices, deps: dd } = deps();
    expect(createConfStoreFactory(d, dd)(spec).get()).toEqual(spec.defaults);
    expect(notices[0].detail).toMatch(/volume/);
    expect(readdirSync(d).some((f) => f.startsWith('prefs.corrupt-'))).toBe(true);
  });

  it('moves aside a file from a newer version instead of guessing', () => {
    const d = dir();
    writeFileSync(join(d, 'prefs.json'), JSON.stringify({ version: 9, data: {} }));
    const { notices, deps: dd } = deps();
    createConfStoreFactory(d, dd)(spec);
    expect(notices[0].detail).toMatch(/newer version/);
  });

  it('refuses to save a value that breaks the schema and keeps the old one', () => {
    const store = createConfStoreFactory(dir(), deps().deps)(spec);
    expect(() => store.set({ volume: 2, name: 'x' })).toThrow(/Refused to save prefs: volume/);
    expect(store.get()).toEqual(spec.defaults);
    expect(store.update((p) => ({ ...p, name: 'u' }))).toEqual({ volume: 0.5, name: 'u' });
  });

  it('shares one instance per record name and rejects a second spec for the same name', () => {
    const factory = createConfStoreFactory(dir(), deps().deps);
    expect(factory(spec)).toBe(factory(spec));
    expect(() => factory({ ...spec })).toThrow(/two different specs/);
    expect(() => factory({ ...spec, name: '../escape' })).toThrow(/Invalid record store name/);
  });
});

describe('memory record store', () => {
  it('behaves like the file store, including moving corrupt text aside', () => {
    const files = new MemoryRecordFiles();
    files.files.set('memory/prefs.json', 'not json');
    const { notices, deps: dd } = deps();
    const store = createMemoryStoreFactory(dd, files)(spec);
    expect(store.get()).toEqual(spec.defaults);
    expect(files.files.get('memory/prefs.corrupt-2026-01-02T03-04-05-000Z.json')).toBe('not json');
    expect(notices).toHaveLength(1);
  });
});

describe('a write-behind record (a record of work, changed on every row of a campaign)', () => {
  const later: RecordStoreSpec<Prefs> = { ...spec, name: 'later', writeBehindMs: 60_000 };
  const onDisk = (d: string) => JSON.parse(readFileSync(join(d, 'later.json'), 'utf8')) as { data: Prefs };

  it('answers its changes at once, writes them together, and when pending records are written', () => {
    const d = mkdtempSync(join(tmpdir(), 'studio-store-'));
    const store = createConfStoreFactory(d, deps().deps)(later);
    for (let i = 1; i <= 50; i++) store.set({ volume: i / 100, name: `row ${i}` });
    expect(store.get()).toEqual({ volume: 0.5, name: 'row 50' });
    // Nothing written per change: the file still holds what opening it wrote.
    expect(onDisk(d).data).toEqual(spec.defaults);
    writePendingRecords();
    expect(onDisk(d).data).toEqual({ volume: 0.5, name: 'row 50' });
  });

  it('writes its last changes when its host stops', async () => {
    const d = mkdtempSync(join(tmpdir(), 'studio-store-'));
    const store = createConfStoreFactory(d, deps().deps)(later);
    store.set({ volume: 0.25, name: 'before stopping' });
    const host = composeHost({
      host: 'cli',
      appVersion: 'test',
      dataDir: mkdtempSync(join(tmpdir(), 'studio-host-')),
      createVault: () => new MemoryVault(),
      platform: {},
      createStoreFactory: (_dir, storeDeps) => createMemoryStoreFactory(storeDeps),
      startSandbox: async () => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', close: async () => undefined }),
      log: () => new MemoryLogger(),
    });
    await host.dispose();
    expect(onDisk(d).data).toEqual({ volume: 0.25, name: 'before stopping' });
  });

  it('keeps a change the schema refuses out of the file, and says so in the log', () => {
    const d = mkdtempSync(join(tmpdir(), 'studio-store-'));
    const { deps: withLog, log } = deps();
    const store = createConfStoreFactory(d, withLog)(later);
    store.set({ volume: 0.75, name: 'good' });
    writePendingRecords();
    store.set({ volume: 7, name: 'too loud' });
    writePendingRecords();
    expect(onDisk(d).data).toEqual({ volume: 0.75, name: 'good' });
    expect(log.lines.some((e) => e.level === 'error' && e.message === 'record not saved')).toBe(true);
  });
});
