import { onBeforeUnmount, onMounted, type Ref } from 'vue';
import type { DataTableRowKey } from 'naive-ui';
import { extendSelection } from './selection';

/**
 * The table's checkbox clicks: a Shift-click checks (or unchecks) every row between the last click and
 * this one, in the order the rows are shown. Naive UI does not pass the click, so the Shift key is
 * followed on the window while the panel is mounted. Call during setup.
 */
export function useShiftSelection(checked: Ref<string[]>, order: () => string[]) {
  let anchor: string | null = null;
  let shiftHeld = false;
  const trackShift = (event: MouseEvent | KeyboardEvent) => (shiftHeld = event.shiftKey);

  onMounted(() => {
    window.addEventListener('mousedown', trackShift, true);
    window.addEventListener('keydown', trackShift, true);
  });
  onBeforeUnmount(() => {
    window.removeEventListener('mousedown', trackShift, true);
    window.removeEventListener('keydown', trackShift, true);
  });

  return function onChecked(
    keys: DataTableRowKey[],
    _rows: unknown,
    meta: { row: Record<string, unknown> | undefined; action: string },
  ): void {
    const row = meta.row as { id: string } | undefined;
    if (shiftHeld && row && anchor && (meta.action === 'check' || meta.action === 'uncheck')) {
      checked.value = extendSelection(checked.value, order(), anchor, row.id, meta.action === 'check');
    } else checked.value = keys as string[];
    if (row) anchor = row.id;
  };
}
