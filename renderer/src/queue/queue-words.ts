// How the queue's choice and panel speak of each kind of run: a campaign makes rows (videos), a batch
// makes lines (voiceovers). The components are one; only their words differ.

export type QueuedRunKind = 'campaign' | 'batch';

export interface QueueWords {
  /** What the run is called: "campaign", "batch". */
  run: string;
  /** What its rows are called, in a sentence and at its start. */
  rows: string;
  Rows: string;
  /** What becomes of each result once a worker made it. */
  comesBack: string;
}

export const QUEUE_WORDS: Record<QueuedRunKind, QueueWords> = {
  campaign: {
    run: 'campaign',
    rows: 'rows',
    Rows: 'Rows',
    comesBack: 'this studio saves its own copy of each video as it comes back.',
  },
  batch: {
    run: 'batch',
    rows: 'lines',
    Rows: 'Lines',
    comesBack: 'each voiceover comes back to this studio, to hear and save as any batch’s.',
  },
};
