// The batch table as the user works in it: cells edited and rows deleted before Send (checked again by
// the host), and the rules for changing a batch that has started.
import { describe, expect, it } from 'vitest';
import type { BatchRow } from '../../../electron/common/bridge/batches';
import type { WholeBatch } from '../../../electron/services/voices/batch-view';
import { rowEdited, rowsRemoved } from '../../../electron/services/voices/batch-edits';
import { applyRowEdits, editedRow, readBatch, type KnownVoices } from '../../../electron/services/voices/batch-input';
import type { BatchRecord } from '../../../electron/services/voices/batch-record';

const known: KnownVoices = Object.assign((id: string) => id === 'sandbox_ava' || id === 'sandbox_hugo', {
  idOf: (given: string) =>
    ({ ava: 'sandbox_ava', hugo: 'sandbox_hugo', sandbox_ava: 'sandbox_ava', sandbox_hugo: 'sandbox_hugo' })[
      given.trim().toLowerCase()
    ] ?? null,
});
const sheet = 'text,voice,rate,name\nHello.,Ava,60,intro\n,Ava,,empty\nToo fast.,Ava,150,fast\nBye.,Hugo,,outro';

describe('editing the table before Send', () => {
  it('checks an edited row again: a fixed row becomes ready, a broken one is refused, a voice may be a name', () => {
    const read = readBatch(sheet, { rate: '50%' }, known);
    expect(read.problems.map((p) => p.row)).toEqual([1, 2]);
    const edited = applyRowEdits(
      read,
      [
        { row: 1, text: 'Now with a script.' },
        { row: 2, rate: '80' },
        { row: 3, voice: 'nobody' },
        { row: 0, voice: 'hugo', name: 'intro-hugo' },
      ],
      [],
      { rate: '50%' },
      known,
    );
    expect(edited.rows.map((r) => [r.row, r.text, r.voiceId, r.rate, r.name])).toEqual([
      [0, 'Hello.', 'sandbox_hugo', '60%', 'intro-hugo'],
      [1, 'Now with a script.', 'sandbox_ava', '50%', 'empty'],
      [2, 'Too fast.', 'sandbox_ava', '80%', 'fast'],
      [3, 'Bye.', 'nobody', '50%', 'outro'],
    ]);
    expect(edited.problems).toEqual([
      { row: 3, message: expect.stringContaining('voice "nobody" is not one of this connection\'s voices') },
    ]);
  });

  it('drops deleted rows and their problems; the others keep their numbers (and so their file names)', () => {
    const read = readBatch(sheet, {}, known);
    const edited = applyRowEdits(read, [], [1, 2], {}, known);
    expect(edited.rows.map((r) => r.row)).toEqual([0, 3]);
    expect(edited.problems).toEqual([]);
  });

  it('keeps a problem about the whole file', () => {
    const read = readBatch('text\n', {}, known);
    expect(applyRowEdits(read, [{ row: 0, text: 'x' }], [3]).problems).toEqual(read.problems);
  });

  it('takes an empty voice as the default and refuses a row left with none', () => {
    const row = readBatch(sheet, {}, known).rows[0];
    expect(editedRow(row, { voice: '' }, { voiceId: 'sandbox_ava' }, known).entry.voiceId).toBe('sandbox_ava');
    expect(editedRow(row, { voice: '' }, {}, known).problem).toMatch(/no voice/);
  });
});

const record = (state: BatchRecord['state']): BatchRecord => ({
  version: 1,
  id: 'b',
  label: 'x',
  createdAt: 0,
  state,
  concurrency: 2,
  template: '{row}',
  retry: [],
  invalid: [3],
  reasons: { 3: 'rate "150" is not 0% to 100%' },
  rows: [0, 1, 2, 3].map((row) => ({
    row,
    text: `Row ${row + 1}.`,
    voiceId: 'sandbox_ava',
    rate: row === 3 ? '150' : '50%',
    name: null,
    state: row === 3 ? ('invalid' as const) : ('pending' as const),
    take: 0,
    problems: [],
  })),
});
const view = (rec: BatchRecord, states: WholeBatch['rows'][number]['state'][]): Pick<WholeBatch, 'rows'> => ({
  rows: rec.rows.map(({ state: _state, take: _take, problems: _problems, ...row }, i) => ({
    ...row,
    state: states[i],
    jobId: null,
    resultUrl: null,
    expiresAt: null,
    problem: null,
    chargedCredits: null,
    endedAt: null,
  })),
});
const check = (row: BatchRow, edit: { text?: string; rate?: string }) => editedRow(row, edit, {}, known);

describe('changing a started batch', () => {
  const states = ['completed', 'processing', 'waiting', 'invalid'] as const;

  it('changes a row not sent yet only while nothing is being sent', () => {
    const running = record('running');
    expect(() => rowEdited(running, view(running, [...states]), { row: 2, text: 'New.' }, false, check)).toThrow(
      'Pause the batch to change sheet row 4',
    );
    const paused = record('paused');
    const changed = rowEdited(paused, view(paused, [...states]), { row: 2, text: 'New.' }, false, check);
    expect(changed.rows[2].text).toBe('New.');
    expect(changed.retry).toEqual([]);
    expect(changed.state).toBe('paused');
  });

  it('sends a refused row once it is fixed, and a finished batch runs again for it', () => {
    const finished = record('finished');
    const fixed = rowEdited(finished, view(finished, [...states]), { row: 3, rate: '90' }, false, check);
    expect([fixed.invalid, fixed.reasons, fixed.rows[3].rate, fixed.state]).toEqual([[], {}, '90%', 'running']);
    const still = rowEdited(finished, view(finished, [...states]), { row: 3, rate: '200' }, false, check);
    expect([still.invalid, still.reasons?.['3'], still.state]).toEqual([
      [3],
      'rate "200" is not 0% to 100%',
      'finished',
    ]);
  });

  it('makes an ended row again only when asked (a new paid job), never one at the service, never with a problem', () => {
    const paused = record('paused');
    const v = view(paused, [...states]);
    expect(() => rowEdited(paused, v, { row: 0, text: 'Better.' }, false, check)).toThrow('Sheet row 2 has been made');
    expect(() => rowEdited(paused, v, { row: 1, text: 'Better.' }, true, check)).toThrow(
      'Sheet row 3 is at the service',
    );
    expect(() => rowEdited(paused, v, { row: 0, text: '' }, true, check)).toThrow('Sheet row 2 was not changed');
    const remade = rowEdited(paused, v, { row: 0, text: 'Better.' }, true, check);
    expect([remade.rows[0].text, remade.retry]).toEqual(['Better.', [0]]);
    const cancelled = record('cancelled');
    expect(() => rowEdited(cancelled, view(cancelled, [...states]), { row: 0, text: 'Better.' }, true, check)).toThrow(
      'cancelled',
    );
  });

  it('deletes rows not sent yet from a paused batch, and refuses to delete a sent (paid) row', () => {
    const paused = record('paused');
    const v = view(paused, [...states]);
    expect(rowsRemoved(paused, v, [2, 3]).rows.map((r) => r.row)).toEqual([0, 1]);
    expect(rowsRemoved(paused, v, [3]).invalid).toEqual([]);
    expect(() => rowsRemoved(paused, v, [2, 0])).toThrow('Sheet row 2 was sent (a paid job): it stays in the batch');
    const running = record('running');
    expect(() => rowsRemoved(running, view(running, [...states]), [2])).toThrow('Pause the batch before deleting rows');
  });
});
