import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMIT_BYTES } from '../../../electron/services/media/local-import';
import { SHEET_MAX_BYTES } from '../../../electron/services/sheets/read-sheet';
import { checkNamedFile, takeNamedFile } from '../../../electron/services/host/owner-files';

const dir = mkdtempSync(join(tmpdir(), 'studio-named-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `bytes` length that takes no room on disk (sparse). */
function sized(name: string, bytes: number): string {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

describe('a file a client names to the owner', () => {
  it('is refused past the size the page takes, for media and for spreadsheets, and when empty', async () => {
    await expect(checkNamedFile(sized('big.mp4', IMPORT_LIMIT_BYTES + 1), 'media')).rejects.toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(/larger than 300 MB/),
    });
    await expect(checkNamedFile(sized('limit.mp4', IMPORT_LIMIT_BYTES), 'media')).resolves.toBeUndefined();
    await expect(checkNamedFile(sized('big.csv', SHEET_MAX_BYTES + 1), 'sheet')).rejects.toMatchObject({
      code: 'too-large',
    });
    await expect(checkNamedFile(sized('empty.wav', 0), 'media')).rejects.toMatchObject({
      code: 'not-media',
      message: expect.stringMatching(/is empty$/),
    });
  });

  it('must be absolute and resolved: the owner never resolves a path against its own folder', async () => {
    const file = sized('ok.wav', 10);
    await expect(checkNamedFile('ok.wav', 'media')).rejects.toMatchObject({ code: 'not-absolute' });
    await expect(checkNamedFile(`${dir}/sub/../ok.wav`, 'media')).rejects.toMatchObject({ code: 'not-absolute' });
    await expect(checkNamedFile(file, 'media')).resolves.toBeUndefined();
  });

  it('is handed to the importer only once checked, and to the one its use names', async () => {
    const opened: string[] = [];
    const importers = {
      importPath: async (path: string) => (
        opened.push(`media:${path}`),
        { url: `file://${path}`, name: 'x', info: {} as never }
      ),
      importSheetPath: async (path: string) => (
        opened.push(`sheet:${path}`),
        { url: `file://${path}`, name: 'x', lines: 1, readAs: 'csv' }
      ),
    };
    await expect(takeNamedFile(importers, dir, 'media')).rejects.toMatchObject({ code: 'not-a-file' });
    await expect(takeNamedFile(importers, join(dir, 'none.csv'), 'sheet')).rejects.toMatchObject({ code: 'not-found' });
    expect(opened).toEqual([]);
    const sheet = sized('rows.csv', 20);
    await takeNamedFile(importers, sheet, 'sheet');
    expect(opened).toEqual([`sheet:${sheet}`]);
  });
});
