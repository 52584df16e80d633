import type { ImportProgress } from './journal-import';

/** Percent of the journal between two printed lines: a large journal takes a while, a small one prints twice. */
const STEP_PERCENT = 10;

/**
 * A host's terminal lines for the first start's import of the old journal: one when it starts, one each
 * tenth of the way and one at the end, so a start that takes a while says why.
 */
export function importProgressLines(print: (line: string) => void): (progress: ImportProgress) => void {
  let printed = -1;
  return (progress) => {
    const percent = progress.totalBytes > 0 ? Math.floor((progress.bytes / progress.totalBytes) * 100) : 100;
    if (progress.done) {
      print(`Job records taken into the database: ${progress.rows.toLocaleString('en-US')} changes.`);
      return;
    }
    const step = Math.floor(percent / STEP_PERCENT);
    if (step <= printed) return;
    printed = step;
    print(`Taking the job journal into the database: ${percent}% (${progress.rows.toLocaleString('en-US')} changes)…`);
  };
}
