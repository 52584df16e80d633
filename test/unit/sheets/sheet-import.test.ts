import { createReadStream, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importSheet, importSheetPath } from '../../../electron/services/sheets/sheet-import';
import { createBatchesDomain } from '../../../electron/services/voices/batches-domain';
import { LocalGrants } from '../../../electron/services/media/local-grants';
import type { StudioServices } from '../../../electron/services/host/studio-types';

const corpus = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'sheets', name);
const dir = mkdtempSync(join(tmpdir(), 'sheet-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(maxBytes = 10 * 1024 * 1024) {
  const grants = new LocalGrants();
  const imports = join(dir, `imports-${Math.random().toString(36).slice(2)}`);
  const deps = { dir: imports, grant: (path: string) => grants.grant(path), limits: { maxRows: 10_000, maxBytes } };
  const catalogue = {
    voices: async () => [
      { voice_id: 'sandbox_ava', name: 'Ava' },
      { voice_id: 'sandbox_hugo', name: 'Hugo' },
      { voice_id: 'v1', name: 'Sam' },
      { voice_id: 'v2', name: 'sam' },
    ],
  };
  const domain = createBatchesDomain(
    { log: { info() {}, warn() {}, error() {} } } as never,
    { batches: {}, catalogue } as unknown as Pick<StudioServices, 'batches' | 'catalogue' | 'jobs'>,
    grants,
  );
  return { grants, imports, deps, check: domain.handlers['batches.check'] };
}

describe('a spreadsheet picked for a batch', () => {
  it('arrives from a page as bytes, is read in its own encoding, granted, and checked by the host from the file', async () => {
    const { deps, check } = setup();
    const chosen = await importSheet(
      deps,
      'Frühling.csv',
      createReadStream(corpus('excel-de-windows-1252-semicolon.csv')),
    );
    expect(chosen).toMatchObject({
      name: 'Frühling.csv',
      lines: 4,
      readAs: 'a semicolon-separated file in Windows-1252 (Western European)',
    });
    const read = await check({
      file: chosen.url,
      label: 'Frühling',
      defaults: { voiceId: 'sandbox_ava' },
      concurrency: 2,
      template: '{row}',
    });
    expect(read.problems).toEqual([]);
    expect(read.rows.map((r) => [r.text.slice(0, 16), r.voiceId, r.rate, r.name])).toEqual([
      // Voices given by name, as people write them, are sent by id.
      ['Frühlingsangebot', 'sandbox_ava', '50%', 'spring-de'],
      ['Café crème, naïv', 'sandbox_hugo', '60%', 'cafe-fr'],
      ['Smörgåsbord för ', 'sandbox_ava', '50%', 'sv'],
    ]);
  });

  it('is refused before anything is ready when it is not a table, and leaves nothing behind', async () => {
    const { deps, imports } = setup();
    await expect(importSheet(deps, 'prices.csv', createReadStream(corpus('song-renamed.csv')))).rejects.toThrow(
      'This is an MP3 sound, not a spreadsheet',
    );
    expect(existsSync(imports) ? readdirSync(imports) : []).toEqual([]);
    const small = setup(100);
    await expect(importSheet(small.deps, 'big.csv', Readable.from([Buffer.alloc(150, 'a')]))).rejects.toMatchObject({
      code: 'sheet-too-big',
    });
    expect(existsSync(small.imports) ? readdirSync(small.imports) : []).toEqual([]);
  });

  it('is read in place from the desktop app, and only a granted file can be checked', async () => {
    const { deps, check } = setup();
    const chosen = await importSheetPath(deps, corpus('excel-spots.xlsx'));
    expect(chosen.readAs).toBe('the sheet "Spots" of an Excel workbook');
    const read = await check({ file: chosen.url, label: 'x', defaults: {}, concurrency: 1, template: '{row}' });
    expect(read.rows).toHaveLength(2);
    const other = pathToFileURL(corpus('excel-utf8-bom.csv')).href;
    await expect(
      check({ file: other, label: 'x', defaults: {}, concurrency: 1, template: '{row}' }),
    ).rejects.toMatchObject({ code: 'not-allowed' });
  });

  it('takes a voice by id or by a name only one voice has', async () => {
    const { check } = setup();
    const read = await check({
      csv: 'text,voice\nOne,v1\nTwo,SAM\nThree,hugo\nFour,Nobody',
      label: 'x',
      defaults: {},
      concurrency: 1,
      template: '{row}',
    });
    expect(read.rows.map((r) => r.voiceId)).toEqual(['v1', 'SAM', 'sandbox_hugo', 'Nobody']);
    expect(read.problems.map((p) => p.row)).toEqual([1, 3]);
  });

  it('says so when a file has a header and nothing under it', async () => {
    const { deps, check } = setup();
    const chosen = await importSheetPath(deps, corpus('header-only.csv'));
    const read = await check({ file: chosen.url, label: 'x', defaults: {}, concurrency: 1, template: '{row}' });
    expect(read.problems).toEqual([{ row: 0, message: 'the file has a header and no rows under it' }]);
  });

  it('names the columns it does not recognise and reads nothing until the user maps them; then names the unused ones', async () => {
    const { deps, check } = setup();
    const path = join(dir, 'werbung.csv');
    writeFileSync(path, 'Werbetext,Sprecher,Notiz\nHallo zusammen.,Ava,intern\nBis bald.,Hugo,\n');
    const { url } = await importSheetPath(deps, path);
    const unmapped = await check({ file: url, label: 'x', defaults: {}, concurrency: 1, template: '{row}' });
    expect(unmapped.rows).toEqual([]);
    expect(unmapped.problems[0].message).toBe(
      'no column is named as the script (the first line has "Werbetext", "Sprecher", "Notiz"): say which column holds what',
    );
    expect(unmapped.columns).toEqual({
      cells: ['Werbetext', 'Sprecher', 'Notiz'],
      mapping: null,
      unused: ['Werbetext', 'Sprecher', 'Notiz'],
    });
    const mapped = await check({
      file: url,
      label: 'x',
      defaults: {},
      concurrency: 1,
      template: '{row}',
      columns: { header: true, text: 0, voice: 1, rate: -1, name: -1 },
    });
    expect(mapped.rows.map((r) => [r.text, r.voiceId])).toEqual([
      ['Hallo zusammen.', 'sandbox_ava'],
      ['Bis bald.', 'sandbox_hugo'],
    ]);
    expect(mapped.problems).toEqual([]);
    expect(mapped.columns.unused).toEqual(['Notiz']);
  });

  it('reads pasted lines as one script each, commas and all, unless the first names a script column', async () => {
    const { check } = setup();
    const pasted = await check({
      csv: 'Hello, and welcome.\nSee you soon, friends.',
      label: 'x',
      defaults: { voiceId: 'sandbox_ava' },
      concurrency: 1,
      template: '{row}',
    });
    expect(pasted.rows.map((r) => r.text)).toEqual(['Hello, and welcome.', 'See you soon, friends.']);
    const csv = await check({
      csv: 'script,voice\n"Hi, there",Hugo',
      label: 'x',
      defaults: {},
      concurrency: 1,
      template: '{row}',
    });
    expect(csv.rows.map((r) => [r.text, r.voiceId])).toEqual([['Hi, there', 'sandbox_hugo']]);
    expect(csv.columns.mapping).toMatchObject({ header: true, text: 0, voice: 1 });
  });
});
