import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS, type RequestOf } from '../../../electron/common/api';
import {
  JOB_KINDS,
  JOB_KIND_REGISTRY,
  videoSnapshot,
  type CreateEndpoint,
  type JobBody,
  type JobKind,
} from '../../../electron/common/jobs/kinds';
import { JobSubmission as JobSubmissionSchema, type JobSubmission } from '../../../electron/common/bridge/jobs';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import { FakeService, fakeConnections } from './fake-service';

/**
 * Every create path of the job-kind registry, taken from the registry itself: a create operation a kind
 * sends without a sample body here fails to compile (a kind sending an operation another kind sends is
 * tested with that body), and each kind must be refused by the engine unless someone agreed to pay. The
 * refusal is the engine's, so a new screen cannot forget to ask.
 */
const SAMPLE_BODIES: { [E in CreateEndpoint]: RequestOf<E> } = {
  audioCreate: { input_text: 'Hello there', voice_id: 'voice-1', rate: '50%' },
  audioClone: { input_text: 'Hello there', voice_url: 'https://x.test/sample.mp3', rate: '50%' },
  lipSync: { video_url: 'https://x.test/v.mp4', audio_url: 'https://x.test/a.mp3' },
  avatarVideoCreate: {
    data: [
      {
        width: 1280,
        height: 720,
        voice: { voice_id: 'voice-1' },
        elements: [
          { type: 'image', url: 'https://x.test/p.png', scale_x: 1, scale_y: 1, offset_x: 0, offset_y: 0 } as never,
        ],
      },
    ],
  },
  talkingAvatarCreate: {
    width: 1280,
    height: 720,
    avatar_from: 2,
    elements: [
      { type: 'avatar', avatar_id: 'a1', scale_x: 1, scale_y: 1, offset_x: 0, offset_y: 0 },
      { type: 'audio', input_text: 'Hi', voice_id: 'voice-1' },
    ],
  },
  characterSwapCreate: {
    image: 'https://x.test/c.png',
    video: 'https://x.test/s.mp4',
    duration: 12,
    resolution: '720p',
  },
  avatarCreate: { url: 'https://x.test/me.mp4', avatar_id: 'me1', name: 'Me', type: 1 },
};
const sampleOf = <K extends JobKind>(kind: K): JobBody<K> =>
  SAMPLE_BODIES[JOB_KIND_REGISTRY[kind].createEndpoint] as JobBody<K>;

const createPath = (kind: JobKind): string => ENDPOINTS[JOB_KIND_REGISTRY[kind].createEndpoint].path;
const submission = (kind: JobKind, extra: Partial<JobSubmission> = {}): JobSubmission =>
  ({ kind, body: sampleOf(kind), ...extra }) as JobSubmission;

let service: FakeService;
let storage: MemoryLedgerStorage;
const engine = (skipQuestionUnder: number | null = null) =>
  new JobEngine({
    storage,
    connections: fakeConnections(service),
    clock: { now: () => Date.now() },
    random: () => 0.5,
    spending: () => ({ skipQuestionUnder, dailyLimits: {} }),
  });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  service = new FakeService();
  storage = new MemoryLedgerStorage();
});
afterEach(() => vi.useRealTimers());

describe('every create path of the job-kind registry', () => {
  it('does not compile, nor pass the bridge, without a confirmation', () => {
    // @ts-expect-error -- a submission must say who agreed to pay; typecheck fails if it ever becomes optional
    const unasked: JobSubmission = { kind: 'tts', body: sampleOf('tts') };
    const parsed = JobSubmissionSchema.safeParse(unasked);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['confirmation']);
    expect(JobSubmissionSchema.safeParse({ ...unasked, confirmation: { by: 'user', credits: null } }).success).toBe(
      true,
    );
  });

  it("covers all the registry's kinds", () => {
    for (const kind of JOB_KINDS) expect(sampleOf(kind), `no sample body for ${kind}`).toBeDefined();
  });

  for (const kind of JOB_KINDS) {
    it(`${kind}: refused without a confirmation, nothing sent or written; sent once confirmed`, async () => {
      const e = engine();
      e.start();
      await expect(e.submit(submission(kind))).rejects.toMatchObject({
        code: 'confirmation-required',
        message: expect.stringMatching(/not confirmed/),
      });
      expect(service.count(createPath(kind))).toBe(0);
      expect(storage.records.size).toBe(0);

      await e.submit(submission(kind, { confirmation: { by: 'script' } })).catch(() => undefined);
      expect(service.count(createPath(kind))).toBe(1);
      expect([...storage.records.values()][0]?.confirmation).toEqual({ by: 'script' });
    });
  }

  it('refuses a user confirmation of a price that is no longer the price, and a batch claim from a job outside the batch', async () => {
    const e = engine();
    e.start();
    // 12 s at 720p: 3 started 5 s × 10 credits.
    await expect(
      e.submit(submission('character-swap', { confirmation: { by: 'user', credits: 20 } })),
    ).rejects.toMatchObject({ code: 'confirmation-required', message: expect.stringMatching(/now 30 credits/) });
    await expect(e.submit(submission('tts', { confirmation: { by: 'batch', batchId: 'b1' } }))).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    expect(service.count(createPath('character-swap')) + service.count(createPath('tts'))).toBe(0);
    await e.submit(
      submission('tts', {
        confirmation: { by: 'batch', batchId: 'b1' },
        purpose: { type: 'batch-row', batchId: 'b1', row: 0 },
      }),
    );
    expect(service.count(createPath('tts'))).toBe(1);
    // A campaign's rows ride on the campaign's own confirmation, and only on it.
    const campaignRow = {
      type: 'campaign-row',
      campaignId: 'c1',
      row: 0,
      step: 'voiceover',
      sceneId: 's1',
      take: 0,
    } as const;
    await expect(
      e.submit(submission('tts', { confirmation: { by: 'batch', batchId: 'c2' }, purpose: campaignRow })),
    ).rejects.toMatchObject({ code: 'confirmation-required' });
    await e.submit(
      submission('tts', { confirmation: { by: 'batch', batchId: 'c1' }, purpose: campaignRow, confirmDuplicate: true }),
    );
    expect(service.count(createPath('tts'))).toBe(2);
  });

  it("sends without the question only a published price within the user's limit", async () => {
    const e = engine(30);
    e.start();
    await expect(e.submit(submission('tts', { confirmation: { by: 'limit', credits: 0 } }))).rejects.toMatchObject({
      message: expect.stringMatching(/no published price/),
    });
    await e.submit(submission('character-swap', { confirmation: { by: 'limit', credits: 30 } })).catch(() => undefined);
    expect(service.count(createPath('character-swap'))).toBe(1);
    const strict = engine(29);
    strict.start();
    await expect(
      strict.submit(
        submission('character-swap', { confirmation: { by: 'limit', credits: 30 }, confirmDuplicate: true }),
      ),
    ).rejects.toMatchObject({ message: expect.stringMatching(/over the 29 credits limit/) });
  });

  it("refuses past the day's spending limit of the connection and says so", async () => {
    const e = new JobEngine({
      storage,
      connections: fakeConnections(service),
      clock: { now: () => Date.now() },
      random: () => 0.5,
      spending: () => ({ skipQuestionUnder: null, dailyLimits: { c1: 50 } }),
    });
    e.start();
    const swap = (seconds: number) =>
      ({
        kind: 'character-swap',
        body: { ...sampleOf('character-swap'), duration: seconds },
        confirmation: { by: 'script' },
      }) as JobSubmission;
    await e.submit(swap(20)).catch(() => undefined); // 40 credits
    await expect(e.submit(swap(10))).rejects.toMatchObject({
      code: 'spending-limit',
      message: expect.stringMatching(/Today's spending limit for "Fake" is 50 credits; 40 credits are spent/),
    });
    expect(service.count(createPath('character-swap'))).toBe(1);
  });

  it('never lets an unpublished price with no charge history through as free: it goes while some of the limit is left, and its charge counts once known', async () => {
    let balance = 100;
    service.onRequest = (path) => {
      if (path === createPath('tts')) balance -= 3;
    };
    const limited = (limit: number) =>
      new JobEngine({
        storage,
        connections: fakeConnections(service),
        clock: { now: () => Date.now() },
        random: () => 0.5,
        balance: async () => balance,
        spending: () => ({ skipQuestionUnder: null, dailyLimits: { c1: limit } }),
      });
    const none = limited(0);
    none.start();
    await expect(none.submit(submission('tts', { confirmation: { by: 'user', credits: null } }))).rejects.toMatchObject(
      { code: 'spending-limit', message: expect.stringMatching(/does not publish.*nothing of the limit is left/) },
    );
    await expect(none.requireConfirmed('tts', 1, { by: 'user', credits: null })).rejects.toMatchObject({
      code: 'spending-limit',
    });
    expect(service.count(createPath('tts'))).toBe(0);
    const some = limited(2);
    some.start();
    await some.submit(submission('tts', { confirmation: { by: 'user', credits: null } }));
    expect(service.count(createPath('tts'))).toBe(1);
    // It cost 3, measured from the balance: today's spending counts that, and the next one is refused.
    expect((await some.quote([{ action: 'tts' }])).spentToday).toBe(3);
    await expect(
      some.submit(
        submission('tts', {
          body: { ...sampleOf('tts'), input_text: 'Again' },
          confirmation: { by: 'user', credits: null },
        }),
      ),
    ).rejects.toMatchObject({ code: 'spending-limit', message: expect.stringMatching(/3 credits are spent/) });
    expect(service.count(createPath('tts'))).toBe(1);
  });
});

describe('what a job cost', () => {
  it("takes a video's deduction_duration as its charge only once the job completed (it says 0 while the credits are already taken)", () => {
    expect(videoSnapshot({ _id: 'v1', video_status: 2, deduction_duration: 0 } as never).chargedCredits).toBeNull();
    expect(videoSnapshot({ _id: 'v1', video_status: 3, deduction_duration: 10 } as never).chargedCredits).toBe(10);
    expect(videoSnapshot({ _id: 'v1', video_status: 1, deduction_credit: 30 } as never).chargedCredits).toBe(30);
  });

  it("records the balance before and after the create and the charge it measured, and the service's own figure over it", async () => {
    let balance = 100;
    service.onRequest = (path) => {
      if (path === createPath('tts')) balance -= 1;
    };
    const e = new JobEngine({
      storage,
      connections: fakeConnections(service),
      clock: { now: () => Date.now() },
      random: () => 0.5,
      balance: async () => balance,
    });
    e.start();
    const sent = await e.submit(submission('tts', { confirmation: { by: 'user', credits: null } }));
    expect(sent.status).toBe('submitted');
    const record = [...storage.records.values()][0];
    expect(record).toMatchObject({
      balanceBefore: 100,
      balanceAfter: 99,
      chargedCredits: 1,
      chargeSource: 'balance',
      costEstimate: null,
    });
    // The next speech job's unpublished price carries this connection's recent charge as its guide.
    const quote = await e.quote([{ action: 'tts', count: 3 }]);
    expect(quote.items[0].price).toEqual({
      published: false,
      note: expect.stringMatching(/not published/),
      recent: { count: 1, credits: 1, basis: 'the last one cost 1 credit' },
    });
    expect(quote).toMatchObject({ balance: 99, spentToday: 1 });
  });
});
