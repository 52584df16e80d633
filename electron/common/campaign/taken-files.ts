import { rowLabel, type NumberedRow } from '../text/row-label';

/**
 * Rows whose file name is taken in the folder by a file that is not their own video, as the Campaigns
 * page and `studio campaign run` both tell them before any price: every row by its sheet row and file,
 * never a sample of them, so a marketer can find each one. One wording, so the two never disagree.
 */

export interface TakenFile extends NumberedRow {
  fileName: string;
}

/** "5 rows would write over a file in /videos that is not their own video" */
export function takenFilesHeadline(count: number, folder: string): string {
  const one = count === 1;
  return `${count} row${one ? '' : 's'} would write over a file in ${folder} that is not ${one ? 'its' : 'their'} own video`;
}

/** One line per row, in sheet order: `Sheet row 8: "07 - Ana.mp4"`. */
export function takenFileLines(taken: readonly TakenFile[]): string[] {
  return [...taken].sort((a, b) => a.row - b.row).map((t) => `${rowLabel(t, { capital: true })}: "${t.fileName}"`);
}
