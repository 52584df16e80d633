import type { AiModel } from '../../common/api/models';
import type { JobSubmission, SubmitResult } from '../../common/bridge/jobs';
import type { MediaCheck } from '../../common/composition/media-checks';
import type { MediaInfo } from '../../common/composition/media-info';

/** What the lip sync and character swap services need from their host (tests pass fakes). */
export interface ToolDeps {
  /** ffprobe of a link or a granted local file, run on the host. */
  probe(reference: string): Promise<MediaInfo>;
  /** The same value with each local file reference replaced by a link (uploaded to the active storage). */
  link<T extends Record<string, string>>(value: T): Promise<T>;
  /** Through the job engine: ledger first, then the create. */
  submit(submission: JobSubmission): Promise<SubmitResult>;
  /** The service's character swap models (type 2101). */
  swapModels(): Promise<AiModel[]>;
}

/** A send stopped before anything reached the service, with every reason. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
  readonly code = 'refused-before-sending';
  constructor(readonly reasons: string[]) {
    super(`Not sent: ${reasons.join(' ')}`);
  }
}

export function refuseOnErrors(checks: readonly MediaCheck[]): void {
  const errors = checks.filter((c) => c.level === 'error').map((c) => c.message);
  if (errors.length > 0) throw new ToolRefusal(errors);
}
