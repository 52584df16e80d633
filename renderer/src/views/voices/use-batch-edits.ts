import { rowLabel } from '@common/text/row-label';
import { computed, shallowRef } from 'vue';
import type { BatchRowEdit } from '@common/bridge';

export type RowField = 'text' | 'voice' | 'rate' | 'name';
type Snapshot = { edits: Record<number, Omit<BatchRowEdit, 'row'>>; removed: number[] };

/**
 * The user's changes to a batch's table before it is sent: cells edited and rows deleted, each step
 * undoable. The host applies them on top of the file at every check and at Send, so what is checked is
 * what is sent.
 */
export function useBatchEdits(labelOf: (row: number) => string = (row) => rowLabel({ row })) {
  // Every step replaces these values, never changes them in place: a snapshot is the values themselves.
  const edits = shallowRef<Snapshot['edits']>({});
  const removed = shallowRef<number[]>([]);
  const history = shallowRef<{ label: string; before: Snapshot }[]>([]);

  const snapshot = (): Snapshot => ({ edits: edits.value, removed: removed.value });
  const step = (label: string, change: () => void): void => {
    history.value = [...history.value, { label, before: snapshot() }];
    change();
  };

  return {
    edits,
    removed,
    /** What the last step was, for the Undo button; null when there is nothing to undo. */
    lastStep: computed(() => history.value.at(-1)?.label ?? null),
    changed: computed(() => Object.keys(edits.value).length),
    edit(row: number, field: RowField, value: string): void {
      step(`edit of ${labelOf(row)}`, () => {
        edits.value = { ...edits.value, [row]: { ...edits.value[row], [field]: value } };
      });
    },
    remove(row: number): void {
      step(`deletion of ${labelOf(row)}`, () => {
        removed.value = [...removed.value, row];
      });
    },
    undo(): boolean {
      const last = history.value.at(-1);
      if (!last) return false;
      history.value = history.value.slice(0, -1);
      edits.value = last.before.edits;
      removed.value = last.before.removed;
      return true;
    },
    /** Another file, other lines or other columns: the changes were to rows that are no longer the same. */
    reset(): void {
      edits.value = {};
      removed.value = [];
      history.value = [];
    },
    /** The changes as the batch input carries them. */
    asInput(): { edits?: BatchRowEdit[]; removed?: number[] } {
      const list = Object.entries(edits.value).map(([row, edit]) => ({ row: Number(row), ...edit }));
      return {
        ...(list.length ? { edits: list } : {}),
        ...(removed.value.length ? { removed: [...removed.value] } : {}),
      };
    },
  };
}
