import type { JobSubmission, JobView, SubmitResult } from '@common/bridge/jobs';

/** The job engine answered by hand: each create waits at the service until `end` says how it ends. */
export class HandService {
  jobs: JobView[] = [];
  onEnd: (job: JobView) => void = () => undefined;

  list(): JobView[] {
    return this.jobs;
  }

  async submit(submission: JobSubmission): Promise<SubmitResult> {
    const job = {
      id: `job-${this.jobs.length + 1}`,
      kind: submission.kind,
      purpose: submission.purpose,
      request: submission.body,
      createdAt: this.jobs.length,
      phase: 'queued',
      remoteId: `r${this.jobs.length + 1}`,
      resultUrl: null,
      expiresAt: null,
      chargedCredits: null,
      error: null,
    } as unknown as JobView;
    this.jobs.push(job);
    return { status: 'submitted', job };
  }

  /** Ends every waiting job (of the rows `only` names): completed, except those of the kinds named, which fail. */
  end(failing: readonly string[] = [], only?: readonly number[]): void {
    const rowOf = (job: JobView) => (job.purpose.type === 'campaign-row' ? job.purpose.row : -1);
    for (const job of this.jobs.filter((j) => j.phase === 'queued' && (!only || only.includes(rowOf(j))))) {
      Object.assign(
        job,
        failing.includes(job.kind)
          ? { phase: 'failed', error: { code: 1015, endpoint: null, message: 'x', explanation: 'render failed' } }
          : {
              phase: 'completed',
              resultUrl: `https://cdn.example/${job.id}`,
              expiresAt: Date.now() + 7 * 86_400_000,
              chargedCredits: 2,
            },
      );
      this.onEnd(job);
    }
  }

  sent(): string[] {
    return this.jobs.map((j) => `${j.kind}#${j.purpose.type === 'campaign-row' ? j.purpose.take : '?'}`);
  }
}
