import type { RecordsStage } from '../../common/bridge/system';
import type { ImportProgress } from './journal-import';
import { SCHEMA_VERSION } from './schema';

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

/**
 * A host's terminal lines for the steps of its records other than the journal's import (which
 * importProgressLines prints): each schema step of an existing database, as one may take a while over
 * many jobs (a new one's steps, all of them, run at once), and the indexes' build once, so a terminal
 * that shows nothing new for a minute says why.
 */
export function stageLines(print: (line: string) => void): (stage: RecordsStage) => void {
  let indexing = false;
  return (stage) => {
    if (stage.stage === 'upgrading' && stage.steps < SCHEMA_VERSION)
      print(`Upgrading the records (step ${stage.step} of ${stage.steps})…`);
    else if (stage.stage === 'indexes' && !indexing) print(`Indexing the jobs (${stage.steps} indexes)…`);
    indexing = stage.stage === 'indexes';
  };
}
