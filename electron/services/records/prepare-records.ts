import type { RecordsStage } from '../../common/bridge/system';
import { checkpoint, openRecordsDatabaseInSteps } from './database';
import { importJournalInSteps } from './journal-import';
import type { LedgerOptions } from './open-ledger';
import { importOtherRecordsInSteps } from './other-records-import';
import { buildJobIndexes } from './schema';

export interface PrepareOptions extends Pick<LedgerOptions, 'log' | 'notify' | 'onImport'> {
  /** What is being done now; called before each step that may take a while. */
  onStage: (stage: RecordsStage) => void;
  /** Gives the host's event loop a turn between steps (default: a timer's turn of it). */
  pause?: () => Promise<void>;
  /** Changes of the old journal per transaction (importJournal's default unless told). */
  rowsPerTransaction?: number;
  /** The host is quitting: the preparation stops at its next pause (the next start goes on from there). */
  signal?: AbortSignal;
}

/**
 * Does, before a host opens a folder's records, what its first start after an update does inside
 * openRecords (schema steps, the old journal's import, the indexes, the other old records), but a step
 * at a time: after each step it reports what comes next and gives the event loop a turn, so the host's
 * window or page can show how far it is. Each step is the same one openRecords would run (it then finds
 * nothing left to do) and is as safe to interrupt: the next start goes on from where this one stopped.
 * A single statement (one index over a million jobs) still holds the loop until it ends; the stage it
 * reported says so meanwhile.
 */
export async function prepareRecords(dataDir: string, options: PrepareOptions): Promise<void> {
  const pause = options.pause ?? nextTurn;
  let sliceStart = performance.now();
  let last: RecordsStage['stage'] | null = null;
  const report = async (stage: RecordsStage): Promise<void> => {
    options.onStage(stage);
    // Before a step that may be long (a schema step, an index, the first of an import, which may read a
    // large file first) always; further on within an import, by time.
    const further = stage.stage === last && IMPORTS.has(stage.stage);
    last = stage.stage;
    if (further && performance.now() - sliceStart < SLICE_MS) return;
    await pause();
    sliceStart = performance.now();
  };
  const reporting = { log: options.log, notify: options.notify };
  const drive = <T, R>(steps: Generator<T, R>, each: (value: T) => RecordsStage): Promise<R> =>
    driveSteps(steps, (value) => report(each(value)), options.signal);
  const database = await drive(openRecordsDatabaseInSteps({ dataDir, ...reporting }), (step) => ({
    stage: 'upgrading',
    ...step,
  }));
  try {
    await drive(
      importJournalInSteps(database, dataDir, {
        ...reporting,
        progress: options.onImport,
        rowsPerTransaction: options.rowsPerTransaction ?? 1000,
      }),
      (step) =>
        'index' in step
          ? { stage: 'indexes', ...step.index }
          : { stage: 'journal', rows: step.rows.rows, fraction: fractionOf(step.rows) },
    );
    // An import killed after it set the indexes aside, its journal since gone, leaves them to build here.
    await drive(buildJobIndexes(database.db), (index) => ({ stage: 'indexes', ...index }));
    await drive(importOtherRecordsInSteps(database, dataDir, reporting), (stage) => stage);
    checkpoint(database.db);
  } finally {
    database.close();
  }
}

/** The preparation was stopped (the host is quitting) before it ended. */
export class PreparationStopped extends Error {
  constructor() {
    super('The studio was closed while it prepared its records; it goes on from there at its next start');
  }
}

/**
 * Runs a generator of steps to its end, awaiting `each` at every pause. Stopped, it throws into the
 * generator rather than leaving it, so its own clean-up runs: an open schema transaction is rolled
 * back and its connection closed, a journal being read is closed.
 */
async function driveSteps<T, R>(
  steps: Generator<T, R>,
  each: (value: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<R> {
  for (let next = steps.next(); ;) {
    if (next.done) return next.value;
    await each(next.value);
    next = signal?.aborted ? steps.throw(new PreparationStopped()) : steps.next();
  }
}

function fractionOf(progress: { bytes: number; totalBytes: number }): number {
  return progress.totalBytes > 0 ? Math.min(1, progress.bytes / progress.totalBytes) : 1;
}

/** The stages that report an import's progress, often, rather than a step that is long in itself. */
const IMPORTS: ReadonlySet<RecordsStage['stage']> = new Set(['journal', 'links', 'copies', 'runs']);

/**
 * How long the preparation works before it gives the event loop a turn. A page's first load is a chain
 * of requests, each a few turns of the loop: one turn per transaction (tenths of a second) made it wait
 * for seconds, while a turn each few dozen milliseconds costs the import next to nothing.
 */
const SLICE_MS = 40;

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}
