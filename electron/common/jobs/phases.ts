/**
 * submitting: written to the ledger, the create is on its way.
 * queued / processing / completed / failed: the service's status.
 * outcome-unknown: the create may or may not have reached the service; the studio will not re-send it.
 * stalled: polling stopped (deadline passed or the connection is gone); "Check again" resumes it.
 */
export const JOB_PHASES = [
  'submitting',
  'queued',
  'processing',
  'completed',
  'failed',
  'outcome-unknown',
  'stalled',
] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

/** The one classification of phases: the engine, the stores and every panel use it. */
export type PhaseClass = 'active' | 'finished' | 'attention';

const CLASS: Record<JobPhase, PhaseClass> = {
  submitting: 'active',
  queued: 'active',
  processing: 'active',
  completed: 'finished',
  failed: 'attention',
  'outcome-unknown': 'attention',
  stalled: 'attention',
};

export function phaseClass(phase: JobPhase): PhaseClass {
  return CLASS[phase];
}

/** Still with the service: the engine polls it. */
export const isActivePhase = (phase: JobPhase): boolean => CLASS[phase] === 'active';
/** The engine does nothing more on its own: completed, or something the user must look at. */
export const isFinalPhase = (phase: JobPhase): boolean => CLASS[phase] !== 'active';
