/**
 * Shift-click: every id between `anchor` and `target` in the shown order becomes checked (or unchecked),
 * the rest of the selection stays as it was.
 */
export function extendSelection(
  current: readonly string[],
  order: readonly string[],
  anchor: string,
  target: string,
  check: boolean,
): string[] {
  const from = order.indexOf(anchor);
  const to = order.indexOf(target);
  if (from < 0 || to < 0) return check ? [...new Set([...current, target])] : current.filter((id) => id !== target);
  const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
  const set = new Set(current);
  for (const id of range) {
    if (check) set.add(id);
    else set.delete(id);
  }
  return order.filter((id) => set.has(id)).concat([...set].filter((id) => !order.includes(id)));
}
