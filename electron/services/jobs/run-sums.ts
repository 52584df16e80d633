import type { JobPhase } from '../../common/jobs/phases';
import type { RunWorkQuery, RunWorkSums } from '../../common/campaign/campaign-work';
import type { RunAtService } from '../../common/jobs/run-at-service';
import type { RunFigures } from '../../common/jobs/run-balance';

/**
 * What a campaign's or batch's view says of its jobs, summed where they are kept: a run of 100,000 rows
 * has 300,000 jobs, and a view that read them whole (and the engine that then held them) grew with
 * every campaign the page showed. Each figure is the same as its reading of the jobs in memory
 * (campaign/campaign-manifest.ts, common/jobs/run-at-service.ts, run-balance.ts runFigures); the
 * database answers them (records/run-job-sums.ts).
 */
export interface RunJobSums {
  /** Credits the service charged each row, every take (a row it has not charged is absent). */
  chargedByRow: Map<number, number>;
  atService: RunAtService;
  /** The run's jobs by step ('voiceover', 'video', …; '' for none) and phase. */
  steps: { step: string; phase: JobPhase; jobs: number }[];
  /** runFigures over the run's row jobs from `since` to `until`; null when not asked (no balance readings). */
  figures: RunFigures | null;
}

export interface RunJobSumsQuery {
  runId: string;
  /** The purpose its rows' jobs carry ('campaign-row', 'batch-row'). */
  purposeType: string;
  /** The run's balance readings' window, as campaignBalanceNote gives runFigures (until: null, no end). */
  balance?: { since: number; until: number | null };
}

/** What a batch's own fields say of its rows' states (voices/batch-view.ts batchView). */
export interface BatchRowsQuery {
  batchId: string;
  /** Rows the checks refused. */
  invalid: readonly number[];
  /** Made on a queue: a row sent there has no job here until its worker reports. */
  queued: boolean;
  cancelled: boolean;
}

/** Where a view asks for its run's figures (the ledger's queries, records/job-queries.ts). */
export interface RunSumsReader {
  /** A campaign's or batch's figures, summed over its jobs. */
  runSums(query: RunJobSumsQuery): RunJobSums;
  /**
   * A batch's rows by the state its view gives each, counted where its rows and jobs are kept; null
   * when they are not kept together (a ledger held in memory: the batch is then read whole).
   */
  batchRows(query: BatchRowsQuery): Record<string, number> | null;
  /** The runs with a job of this purpose whose result expires after `from` and by `to`. */
  runsExpiring(purposeType: string, from: number, to: number): string[];
  /** What a campaign's pace needs of its jobs, summed where they are kept. */
  campaignWork(query: RunWorkQuery): RunWorkSums;
}
