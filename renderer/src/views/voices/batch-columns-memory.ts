import type { BatchColumns } from '@common/bridge';

/** Mappings the user gave, by the header they were given for: the same spreadsheet layout is mapped once. */
const REMEMBERED = 'studio.batch-columns';
const headerKey = (cells: string[]) => cells.map((cell) => cell.toLowerCase()).join('\u0001');
function rememberedAll(): Record<string, BatchColumns> {
  try {
    return JSON.parse(localStorage.getItem(REMEMBERED) ?? '{}') as Record<string, BatchColumns>;
  } catch {
    return {};
  }
}
export const remembered = (cells: string[]): BatchColumns | undefined => rememberedAll()[headerKey(cells)];
export function remember(cells: string[], mapping: BatchColumns): void {
  localStorage.setItem(REMEMBERED, JSON.stringify({ ...rememberedAll(), [headerKey(cells)]: mapping }));
}
