import { describe, expect, it } from 'vitest';
import { batchQueueRows, batchTally, rowActions, rowStateLabel, tallyText } from '@/views/voices/batch-logic';
import { useBatchEdits } from '@/views/voices/use-batch-edits';

describe('a batch tally', () => {
  it('says how many rows are sent, running, done, failed, held and refused', () => {
    const tally = batchTally({
      waiting: 185,
      sending: 1,
      queued: 2,
      processing: 1,
      completed: 8,
      failed: 1,
      'outcome-unknown': 1,
      invalid: 1,
    });
    expect(tally).toEqual({ sent: 14, running: 4, done: 8, failed: 2, held: 185, refused: 1, cancelled: 0 });
    expect(tallyText(tally, 200)).toBe('14 sent · 4 running · 8 done · 2 failed · 185 held · 1 refused · 200 rows');
    expect(tallyText(batchTally({ completed: 2, cancelled: 3 }), 5)).toBe(
      '2 sent · 0 running · 2 done · 0 failed · 0 held · 0 refused · 3 cancelled · 5 rows',
    );
  });
});

describe("a queued batch's rows", () => {
  it('read "On the queue" while a worker has them, "Queued" at the service otherwise, and list under way first', () => {
    expect(rowStateLabel('queued', true)).toBe('On the queue');
    expect(rowStateLabel('queued')).toBe('Queued');
    expect(rowStateLabel('completed', true)).toBe('Done');
    expect(batchQueueRows({ completed: 3, waiting: 0, invalid: 1, queued: 2 })).toEqual([
      { state: 'queued', label: 'On the queue', count: 2 },
      { state: 'completed', label: 'Done', count: 3 },
      { state: 'invalid', label: 'Not sent', count: 1 },
    ]);
  });
});

describe('what can be done to a row', () => {
  it('plays a done row, changes an unsent row only while nothing is sent, remakes an ended one, deletes only unsent rows', () => {
    expect(rowActions('running', 'completed')).toEqual({ listen: true, change: 'remake', redo: true, remove: false });
    expect(rowActions('running', 'waiting')).toEqual({ listen: false, change: null, redo: false, remove: false });
    expect(rowActions('paused', 'waiting')).toEqual({ listen: false, change: 'edit', redo: false, remove: true });
    expect(rowActions('finished', 'invalid')).toEqual({ listen: false, change: 'edit', redo: false, remove: true });
    expect(rowActions('paused', 'processing')).toEqual({ listen: false, change: null, redo: false, remove: false });
    expect(rowActions('cancelled', 'completed')).toEqual({ listen: true, change: null, redo: false, remove: false });
    // Made again and failed: its last good take can still be heard.
    expect(rowActions('finished', 'failed', true)).toEqual({
      listen: true,
      change: 'remake',
      redo: true,
      remove: false,
    });
  });
});

describe('table changes before Send', () => {
  it('undoes edits and deletions one step at a time, and sends only what is left', () => {
    const changes = useBatchEdits();
    expect(changes.asInput()).toEqual({});
    changes.edit(2, 'text', 'New script.');
    changes.edit(2, 'voice', 'Hugo');
    changes.remove(4);
    expect(changes.lastStep.value).toBe('deletion of sheet row 6');
    expect(changes.asInput()).toEqual({ edits: [{ row: 2, text: 'New script.', voice: 'Hugo' }], removed: [4] });
    expect(changes.undo()).toBe(true);
    expect(changes.undo()).toBe(true);
    expect(changes.asInput()).toEqual({ edits: [{ row: 2, text: 'New script.' }] });
    expect(changes.lastStep.value).toBe('edit of sheet row 4');
    changes.reset();
    expect([changes.asInput(), changes.undo()]).toEqual([{}, false]);
  });
});
