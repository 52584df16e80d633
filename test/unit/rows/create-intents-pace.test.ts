// A create still unsent past the room kept after its turn (its intent slow to write) waits for a new turn:
// its intent is let go meanwhile, it takes one new turn at most, and it is not sent if it may no longer go
// (asked last, just before the request).
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView, SubmitResult } from '../../../electron/common/bridge/jobs';
import {
  InProcessCreateIntents,
  NOT_SENT,
  sendOnce,
  type CreateIntents,
  type IntentKey,
  type SendPace,
} from '../../../electron/services/rows/queue/create-intents';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import { intentStores } from './intent-stores';

const key: IntentKey = { kind: 'batch', runId: 'b-1', row: 7, take: 0, step: 'speech' };
const submission = { kind: 'tts', body: { input_text: 'Hi', voice_id: 'v', rate: '50%' } } as unknown as JobSubmission;

const stores = intentStores();

/** A pace that is always late, noting what the intent was while each new turn was awaited. */
function latePace(intents: CreateIntents, mayGo: boolean) {
  const heldWhileWaiting: boolean[] = [];
  const pace: SendPace = {
    late: () => true,
    wait: async () => void heldWhileWaiting.push((await intents.read(key)) !== null),
    mayGo: async () => mayGo,
  };
  return { pace, heldWhileWaiting };
}

function jobs() {
  const sent: string[] = [];
  const rowJobs: RowJobs = {
    list: () => [],
    submit: async () => {
      sent.push('r1');
      return { status: 'submitted', job: { phase: 'queued', remoteId: 'r1', error: null } as JobView } as SubmitResult;
    },
  };
  return { rowJobs, sent };
}

describe.each(stores)('a create late for its turn (%s intents)', (_name, make) => {
  it('lets its intent go while it waits for one new turn, then claims it again and is sent', async () => {
    const intents = make();
    const { rowJobs, sent } = jobs();
    const { pace, heldWhileWaiting } = latePace(intents, true);
    const result = await sendOnce({ jobs: rowJobs, intents }, key, submission, async () => undefined, { pace });
    // Late again after the new turn, it still goes: one new turn at most.
    expect(heldWhileWaiting).toEqual([false]);
    expect(sent).toEqual(['r1']);
    expect(result.status).toBe('submitted');
    expect((await intents.read(key))?.remoteId).toBe('r1');
  });

  it('sends nothing and leaves no intent when it may no longer go after the wait', async () => {
    const intents = make();
    const { rowJobs, sent } = jobs();
    const { pace } = latePace(intents, false);
    await expect(sendOnce({ jobs: rowJobs, intents }, key, submission, async () => undefined, { pace })).rejects.toBe(
      NOT_SENT,
    );
    expect(sent).toEqual([]);
    // Nothing for a later attempt to take as of unknown outcome.
    expect(await intents.read(key)).toBeNull();
  });
});

describe('a create late for its turn with no intents kept', () => {
  it('waits for a new turn and is not sent if it may no longer go', async () => {
    const { rowJobs, sent } = jobs();
    const { pace } = latePace(new InProcessCreateIntents(), false);
    await expect(sendOnce({ jobs: rowJobs }, key, submission, async () => undefined, { pace })).rejects.toBe(NOT_SENT);
    expect(sent).toEqual([]);
  });
});
