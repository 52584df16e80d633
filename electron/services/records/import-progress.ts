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
  const imports = otherImportLines(print);
  return (stage) => {
    if (stage.stage === 'upgrading' && stage.steps < SCHEMA_VERSION)
      print(`Upgrading the records (step ${stage.step} of ${stage.steps})…`);
    else if (stage.stage === 'indexes' && !indexing) print(`Indexing the jobs (${stage.steps} indexes)…`);
    else if (stage.stage === 'links' || stage.stage === 'copies' || stage.stage === 'runs') imports(stage);
    indexing = stage.stage === 'indexes';
  };
}

type OtherImport = Extract<RecordsStage, { stage: 'links' | 'copies' | 'runs' }>;

/** How a terminal line names each of the other old records, under way and once in. */
const OTHER_RECORDS: Record<OtherImport['stage'], { taking: string; taken: string; unit: string }> = {
  links: {
    taking: 'Taking the old record of uploads into the database',
    taken: 'Storage links taken into the database',
    unit: 'links',
  },
  copies: {
    taking: 'Taking the old download queue into the database',
    taken: 'Saved copies taken into the database',
    unit: 'copies',
  },
  runs: {
    taking: 'Taking the old campaigns and batches into the database',
    taken: 'Campaigns and batches taken into the database',
    unit: 'rows',
  },
};

/**
 * The lines of the imports of the other old records, as the journal's: one when each starts, one each
 * tenth of the way and one when all of it is in, so a start silent for a minute says what it is doing.
 */
function otherImportLines(print: (line: string) => void): (stage: OtherImport) => void {
  let current: OtherImport['stage'] | null = null;
  let printed = -1;
  let ended = false;
  return (stage) => {
    if (stage.stage !== current) [current, printed, ended] = [stage.stage, -1, false];
    const words = OTHER_RECORDS[stage.stage];
    const [fraction, counted, started, done] =
      stage.stage === 'runs'
        ? [stage.fraction, count(stage.rows), stage.rows > 0, stage.fraction >= 1]
        : [
            stage.total > 0 ? stage.done / stage.total : 0,
            `${count(stage.done)} of ${count(stage.total)}`,
            stage.done > 0,
            stage.total > 0 && stage.done >= stage.total,
          ];
    if (ended) return;
    if (done) {
      ended = true;
      print(`${words.taken}: ${stage.stage === 'runs' ? counted : count(stage.total)} ${words.unit}.`);
      return;
    }
    const step = started ? Math.floor((fraction * 100) / STEP_PERCENT) : 0;
    if (step <= printed) return;
    printed = step;
    print(started ? `${words.taking}: ${Math.floor(fraction * 100)}% (${counted} ${words.unit})…` : `${words.taking}…`);
  };
}

const count = (n: number): string => n.toLocaleString('en-US');
