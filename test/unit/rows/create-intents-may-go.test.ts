// A create asks whether it may still go once its intent is written (a pause or a cancel may have come
// while the intent was written or the row waited behind others): if not, nothing is sent and no intent is
// left for a later attempt to take as of unknown outcome.
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView, SubmitResult } from '../../../electron/common/bridge/jobs';
import { NOT_SENT, sendOnce, type IntentKey } from '../../../electron/services/rows/queue/create-intents';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import { intentStores } from './intent-stores';

const key: IntentKey = { kind: 'batch', runId: 'b-1', row: 7, take: 0, step: 'speech' };
const submission = { kind: 'tts', body: { input_text: 'Hi', voice_id: 'v', rate: '50%' } } as unknown as JobSubmission;

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

describe.each(intentStores())('a create asked whether it may still go (%s intents)', (_name, make) => {
  it('is sent, its job beside its intent, when it may', async () => {
    const intents = make();
    const { rowJobs, sent } = jobs();
    let askedWithIntent = false;
    const mayGo = async () => ((askedWithIntent = (await intents.read(key)) !== null), true);
    const result = await sendOnce({ jobs: rowJobs, intents }, key, submission, async () => undefined, { mayGo });
    expect(askedWithIntent).toBe(true);
    expect(sent).toEqual(['r1']);
    expect(result.status).toBe('submitted');
    expect((await intents.read(key))?.remoteId).toBe('r1');
  });

  it('sends nothing and leaves no intent when it may no longer go', async () => {
    const intents = make();
    const { rowJobs, sent } = jobs();
    const stop = { mayGo: async () => false };
    await expect(sendOnce({ jobs: rowJobs, intents }, key, submission, async () => undefined, stop)).rejects.toBe(
      NOT_SENT,
    );
    expect(sent).toEqual([]);
    expect(await intents.read(key)).toBeNull();
  });
});

describe('a create with no intents kept', () => {
  it('is not sent if it may no longer go', async () => {
    const { rowJobs, sent } = jobs();
    const stop = { mayGo: async () => false };
    await expect(sendOnce({ jobs: rowJobs }, key, submission, async () => undefined, stop)).rejects.toBe(NOT_SENT);
    expect(sent).toEqual([]);
  });
});
