import type { Redis } from 'ioredis';
import type { JobSubmission, SubmitResult } from '../../../common/bridge/jobs';
import { refusedForBalance, refusedTooFrequent, type RowJobs } from '../engine/row-kind';
import { CreateHeldBack, type SentCharge, type SubmitOptions } from '../../jobs/engine-types';
import { OUTCOME_UNKNOWN } from '../../../common/campaign/row-review';

/** One paid create of a row: which run, row, take and step (a campaign's voiceover step names its scene). */
export interface IntentKey {
  kind: string;
  runId: string;
  row: number;
  take: number;
  step: string;
}

/** What an intent says: who wrote it and when, and once the service answered, the job it made and its charge. */
export interface IntentRecord {
  worker: string | null;
  at: string;
  remoteId?: string;
  /** What its worker charged for it at the answer: a worker that adopts the job charges the same. */
  charge?: SentCharge;
}

/**
 * The record of creates someone set out to send, shared by every worker of a run: a create's intent is
 * written, atomically, before its request, and the job's id beside it once the service answers. A second
 * attempt at the same create (a worker that took over a row whose first worker died) finds it: with the
 * id, it follows that job instead of sending another; without one (cut off mid-send), the outcome is
 * unknown and the row waits for review. The ledger still answers first where it knows the job.
 */
export interface CreateIntents {
  /** Writes the intent; false when it was written already (an earlier attempt may have sent the create). */
  claim(key: IntentKey): Promise<boolean>;
  /** The create was refused before anything was made (1005, the day's limit, a bad body): it may go again. */
  release(key: IntentKey): Promise<void>;
  /** The service made the job: its id (and its charge) go beside the intent, for a worker that takes the row over. */
  made(key: IntentKey, remoteId: string, charge?: SentCharge): Promise<void>;
  read(key: IntentKey): Promise<IntentRecord | null>;
}

export { OUTCOME_UNKNOWN };

const keyText = (key: IntentKey): string =>
  [key.kind, key.runId, String(key.row), String(key.take), key.step].map((part) => encodeURIComponent(part)).join(':');

export function intentKey(
  task: { kind: string; runId: string; row: number },
  row: { take: number; state: string },
  submission: JobSubmission,
): IntentKey {
  const purpose = submission.purpose;
  const scene = purpose && 'sceneId' in purpose && purpose.sceneId ? `/${purpose.sceneId}` : '';
  // A row's video in each of the template's formats is a step of its own: one key for all of them had a
  // worker adopt the first format's video as the second's.
  const format = purpose && 'format' in purpose && purpose.format ? `@${purpose.format}` : '';
  return { kind: task.kind, runId: task.runId, row: task.row, take: row.take, step: `${row.state}${scene}${format}` };
}

/** Thrown by `sendOnce` when the create may no longer go (`SendStops.mayGo`): nothing was sent. */
export const NOT_SENT = new Error('stopped before the create was sent');

/**
 * What may still stop a create: `mayGo`, asked once its intent is written, false when the engine or its run
 * stopped meanwhile (a pause by the account, a cancel); and `stillGoes`, asked by the transport with nothing
 * awaited between it and the request (mayGo is asked before the ledger write and the limiter's turn, a
 * pause may land between). `rowHeld` goes on to the spending gate with the create.
 */
export interface SendStops extends Pick<SubmitOptions, 'stillGoes' | 'rowHeld'> {
  mayGo?: () => Promise<boolean>;
  /** Told when `stillGoes` held the create back: puts the row where a row stopped before its create goes. */
  heldBack?: () => Promise<unknown>;
}

/**
 * Sends a row's create once: its intent first, then the job engine's submit; the intent is released
 * when nothing was made, and given the job's id when something was. A submit that throws has sent nothing
 * (the job engine records an ambiguous send as an outcome-unknown job rather than throwing), so its intent
 * is released too. An intent found written already sends nothing: with a job's id, that job is followed
 * here (`adopt`); without one, the step's job is recorded and its row failed as of unknown outcome (`set`),
 * for a person to review.
 */
export async function sendOnce<Row extends { state: string; problems: string[] }>(
  deps: { jobs: RowJobs; intents?: CreateIntents },
  key: IntentKey,
  submission: JobSubmission,
  set: (change: (row: Row) => Row) => Promise<void>,
  { mayGo, stillGoes, rowHeld, heldBack }: SendStops = {},
): Promise<SubmitResult | { status: 'outcome-unknown' }> {
  const { jobs, intents } = deps;
  // Held back at the last moment: nothing was sent, and the row is put back (`heldBack`).
  const submit = () =>
    jobs.submit(submission, { stillGoes, rowHeld }).catch(async (error: unknown) => {
      if (!(error instanceof CreateHeldBack)) throw error;
      await heldBack?.();
      throw NOT_SENT;
    });
  if (!intents) {
    if (mayGo && !(await mayGo())) throw NOT_SENT;
    return submit();
  }
  if (!(await intents.claim(key))) {
    const earlier = await intents.read(key);
    if (earlier?.remoteId && jobs.adopt) return jobs.adopt(submission, earlier.remoteId, earlier.charge);
    // Written down as a job of unknown outcome, so the row's report (and the studio's records) keep
    // what may have been made and charged; nothing is sent.
    await jobs.adopt?.(submission, null);
    await set((row) => ({ ...row, state: 'failed', problems: [OUTCOME_UNKNOWN] }));
    return { status: 'outcome-unknown' };
  }
  let result: SubmitResult;
  try {
    // Asked after the intent's write: a run paused meanwhile sends nothing more.
    if (mayGo && !(await mayGo())) throw NOT_SENT;
    result = await submit();
  } catch (error) {
    await intents.release(key);
    throw error;
  }
  // Refused before anything was made: the step may go again (after the limiter's wait, or a top-up).
  if (result.status !== 'submitted' || refusedTooFrequent(result.job) || refusedForBalance(result.job))
    await intents.release(key);
  else if (result.job.remoteId) {
    // Its charge too: a voiceover's, measured or estimated here, is nowhere else once this worker dies.
    const { chargedCredits, chargeSource } = result.job;
    await intents.made(key, result.job.remoteId, { chargedCredits, chargeSource });
  }
  return result;
}

/** Intents in Redis (SET NX), shared by every worker; each is kept `keepMs` (default 30 days), then forgotten. */
export class RedisCreateIntents implements CreateIntents {
  constructor(
    private readonly redis: Redis,
    private readonly options: { prefix?: string; worker?: string; keepMs?: number } = {},
  ) {}

  async claim(key: IntentKey): Promise<boolean> {
    const value = JSON.stringify({ worker: this.options.worker ?? null, at: new Date().toISOString() });
    const keep = this.options.keepMs ?? 30 * 86_400_000;
    return (await this.redis.set(this.redisKey(key), value, 'PX', keep, 'NX')) === 'OK';
  }

  async release(key: IntentKey): Promise<void> {
    await this.redis.del(this.redisKey(key));
  }

  async made(key: IntentKey, remoteId: string, charge?: SentCharge): Promise<void> {
    const earlier = await this.read(key);
    const value = JSON.stringify({
      ...(earlier ?? { worker: this.options.worker ?? null, at: new Date().toISOString() }),
      remoteId,
      charge,
    });
    await this.redis.set(this.redisKey(key), value, 'KEEPTTL');
  }

  async read(key: IntentKey): Promise<IntentRecord | null> {
    const text = await this.redis.get(this.redisKey(key));
    return text === null ? null : (JSON.parse(text) as IntentRecord);
  }

  private redisKey(key: IntentKey): string {
    return `${this.options.prefix ?? 'studio'}:intent:${keyText(key)}`;
  }
}
