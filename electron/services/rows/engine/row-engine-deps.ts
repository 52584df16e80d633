import type { Logger } from '../../host/types';
import type { RunBalanceOptions } from '../../jobs/run-balance';
import type { CreateIntents } from '../queue/create-intents';
import type { Budget } from '../../jobs/budget';
import type { QueuedRuns } from '../queue/queued-runs';
import type { RowJobs } from './row-kind';
import type { RowPacers } from '../rate/row-pacer';
import type { RowBudget } from '../money/row-budget';
import type { RowFlight } from './row-flight';
import type { AccountCreates } from '../../jobs/account-creates';

/**
 * What the workers of queued runs share in Redis: the intents to create (the row engine's), and the budget
 * (queued runs' day's limit and cap) and the account's creates (the job engine's spending gate).
 */
export interface SharedRecords {
  intents: CreateIntents;
  budget: Budget;
  /** The creates on their way on the account, so a charge measured around one is its own (the job engine's). */
  creates?: AccountCreates;
}

/** What the row engine is built on: the job engine, the pacers and the records shared with other workers. */
export interface RowEngineDeps {
  jobs: RowJobs;
  /** The connection creates go to now (one pacer each); default: one pacer for everything. */
  connection?(): Promise<string>;
  pacers?: RowPacers;
  /** Intents to create shared by workers on several machines; none: the ledger alone guards creates. */
  intents?: CreateIntents;
  /** Where a queued run's rows go (queued-runs.ts); none: every run is made here. */
  remote?: QueuedRuns;
  log?: Logger;
  balanceReadings?: RunBalanceOptions;
  /** The budget a row's whole price is reserved in before it starts (default: over the job engine's balance). */
  budget?: RowBudget;
  /** How many rows may be under way on a connection (default: a few minutes of what the service finishes). */
  flight?: RowFlight;
}
