import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript lint plugin without type declarations
import { importsOf } from '../../../.eslint-plugin-local/import-graph.js';

const root = join(import.meta.dirname, '..', '..', '..');

// Where each host starts: the desktop app's main process and preload, the web host, the command line.
const HOST_ENTRIES = [
  'electron/main/index.ts',
  'electron/preload/index.ts',
  'electron/web/cli.ts',
  'electron/cli/index.ts',
];

// Service files no host loads, each for a reason: the tests' in-memory host and the client's barrel
// (tests import the client whole), and a type declaration for a package without types.
const NOT_FOR_HOSTS = [
  'electron/services/host/memory-host.ts',
  'electron/services/client/index.ts',
  'electron/services/text/wawoff2.d.ts',
];

/** Every file of ours the given entries load, directly or through other files. */
function reachedFrom(entries: readonly string[]): Set<string> {
  const seen = new Set(entries.map((entry) => join(root, entry)));
  const waiting = [...seen];
  for (let file = waiting.pop(); file !== undefined; file = waiting.pop()) {
    for (const next of importsOf(file) as string[]) {
      if (!seen.has(next)) {
        seen.add(next);
        waiting.push(next);
      }
    }
  }
  return new Set([...seen].map((file) => relative(root, file)));
}

// The folder as it is on disk, so a file not yet added to git is checked too.
const tracked = (folder: string) =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));

describe('every service file is reached from a host', () => {
  it('leaves no file under electron/services that no host loads (dead code reads as working)', () => {
    const reached = reachedFrom(HOST_ENTRIES);
    const unreached = tracked('electron/services').filter(
      (file) => !reached.has(file) && !NOT_FOR_HOSTS.includes(file),
    );
    expect(unreached, 'delete these files, or load them from a host').toEqual([]);
  });

  it('tells a file no host loads from one it does', () => {
    const reached = reachedFrom(['electron/cli/index.ts']);
    expect(reached.has('electron/services/rows/queue/row-worker.ts')).toBe(true);
    expect(reached.has('electron/services/host/memory-host.ts')).toBe(false);
  });

  it('names only exceptions that still exist and are still unreached', () => {
    const reached = reachedFrom(HOST_ENTRIES);
    const files = new Set(tracked('electron/services'));
    for (const file of NOT_FOR_HOSTS) {
      expect(files.has(file), `${file} is gone: take it off NOT_FOR_HOSTS`).toBe(true);
      expect(reached.has(file), `${file} is loaded by a host now: take it off NOT_FOR_HOSTS`).toBe(false);
    }
  });
});
