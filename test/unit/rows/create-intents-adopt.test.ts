// A row taken over by a second worker: a create whose job the first worker made is followed, not sent
// again; one cut off before the service answered stays of unknown outcome, and is recorded so. On both
// intent stores.
import { describe, expect, it } from 'vitest';
import type { JobSubmission, JobView, SubmitResult } from '../../../electron/common/bridge/jobs';
import {
  OUTCOME_UNKNOWN,
  intentKey,
  sendOnce,
  type IntentKey,
} from '../../../electron/services/rows/queue/create-intents';
import type { RowJobs } from '../../../electron/services/rows/engine/row-kind';
import { intentStores } from './intent-stores';

const key: IntentKey = { kind: 'campaign', runId: 'c-1', row: 3, take: 0, step: 'video' };
const submission = { kind: 'tts', body: { input_text: 'Hi', voice_id: 'v', rate: '50%' } } as unknown as JobSubmission;

/** A worker's job engine: what it sent and what it took over. */
function worker(remoteId: string) {
  const sent: string[] = [];
  const adopted: (string | null)[] = [];
  const job = (id: string | null) =>
    ({ status: 'submitted', job: { phase: 'queued', remoteId: id, error: null } as JobView }) as SubmitResult;
  const jobs: RowJobs = {
    list: () => [],
    submit: async () => (sent.push(remoteId), job(remoteId)),
    adopt: async (_s, id) => (adopted.push(id), job(id)),
  };
  return { jobs, sent, adopted };
}

const stores = intentStores();

describe.each(stores)('a create taken over (%s intents)', (_name, make) => {
  it('follows the job the first worker made instead of sending it again', async () => {
    const intents = make();
    const first = worker('remote-1');
    const second = worker('remote-2');
    const rows: string[] = [];
    const set = async () => void rows.push('changed');
    await sendOnce({ jobs: first.jobs, intents }, key, submission, set);
    const taken = await sendOnce({ jobs: second.jobs, intents }, key, submission, set);
    expect(first.sent).toEqual(['remote-1']);
    expect(second.sent).toEqual([]);
    expect(second.adopted).toEqual(['remote-1']);
    expect(taken.status === 'submitted' && taken.job.remoteId).toBe('remote-1');
    expect(rows).toEqual([]);
  });

  it("hands the first worker's charge to the one that adopts its job (a voiceover's is nowhere else)", async () => {
    const intents = make();
    const view = { phase: 'queued', remoteId: 'remote-1', error: null, chargedCredits: 1, chargeSource: 'balance' };
    const made = { status: 'submitted', job: view as JobView } as SubmitResult;
    let sentWith: unknown = null;
    const first: RowJobs = { list: () => [], submit: async () => made };
    const second: RowJobs = {
      list: () => [],
      submit: async () => Promise.reject(new Error('sent again')),
      adopt: async (_s, _id, sent) => ((sentWith = sent), made),
    };
    const set = async () => undefined;
    await sendOnce({ jobs: first, intents }, key, submission, set);
    await sendOnce({ jobs: second, intents }, key, submission, set);
    expect(sentWith).toEqual({ chargedCredits: 1, chargeSource: 'balance' });
  });

  it('leaves a create cut off before the answer of unknown outcome, records it so, and sends nothing', async () => {
    const intents = make();
    await intents.claim(key);
    const second = worker('remote-2');
    let row = { state: 'video', problems: [] as string[] };
    const set = async (change: (r: typeof row) => typeof row) => void (row = change(row));
    const taken = await sendOnce({ jobs: second.jobs, intents }, key, submission, set);
    expect(taken.status).toBe('outcome-unknown');
    expect(second.sent).toEqual([]);
    // Its job written down without an id (the row's report carries it to the studio's records).
    expect(second.adopted).toEqual([null]);
    expect(row).toEqual({ state: 'failed', problems: [OUTCOME_UNKNOWN] });
  });

  it("sends a row's video in each of the template's formats, none taken for another's", async () => {
    const intents = make();
    const task = { kind: 'campaign', runId: 'c-1', row: 3 };
    const row = { take: 0, state: 'video', problems: [] as string[] };
    const video = (format?: string) =>
      ({
        kind: 'avatar-video',
        body: {},
        purpose: {
          type: 'campaign-row',
          campaignId: 'c-1',
          row: 3,
          step: 'video',
          take: 0,
          ...(format ? { format } : {}),
        },
      }) as unknown as JobSubmission;
    const ids = ['landscape', 'portrait', 'square'];
    const sent: string[] = [];
    const jobs: RowJobs = {
      list: () => [],
      submit: async () => {
        const id = ids[sent.length] as string;
        sent.push(id);
        return { status: 'submitted', job: { phase: 'queued', remoteId: id, error: null } as JobView };
      },
      adopt: async () => Promise.reject(new Error('another format was adopted')),
    };
    const set = async () => undefined;
    for (const format of [undefined, '1080x1920', '1080x1080'])
      await sendOnce({ jobs, intents }, intentKey(task, row, video(format)), video(format), set);
    expect(sent).toEqual(ids);
  });
});
