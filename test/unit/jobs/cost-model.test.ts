import { describe, expect, it } from 'vitest';
import {
  PAID_ACTIONS,
  UNPUBLISHED_NOTE,
  combinedPrice,
  confirmationRefusal,
  dailyLimitRefusal,
  expectedCredits,
  limitCheckableAhead,
  describePrice,
  jobPrice,
  priceOf,
  recentCost,
  totalPrice,
  type PaidAction,
  type PastCharge,
} from '../../../electron/common/jobs/cost-model';
import { swapCost } from '../../../electron/common/tools/character-swap';
import { modelPriceEstimator } from '../../../electron/services/catalogue/model-prices';

const charge = (action: PaidAction, credits: number, at: number): PastCharge => ({ action, credits, at });

describe('the price of each paid action', () => {
  // What the service publishes: the character-swap table (per started 5 s) and the model list's unit_credit.
  const published: Partial<Record<PaidAction, { body: Record<string, unknown>; credits: number }>> = {
    'character-swap': { body: { duration: 12, resolution: '720p' }, credits: 30 },
  };

  for (const action of PAID_ACTIONS) {
    it(`${action}: ${published[action] ? 'the published figure' : 'the honest unknown, with the recent charges as a guide'}`, () => {
      const history = [charge(action, 4, 1), charge(action, 6, 2), charge('tts', 1, 3)];
      const price =
        action === 'live-session'
          ? priceOf(action, null, history)
          : jobPrice(action, published[action]?.body ?? {}, history);
      const known = published[action];
      if (known) {
        expect(price).toMatchObject({ published: true, credits: known.credits });
        return;
      }
      expect(price).toMatchObject({ published: false, note: UNPUBLISHED_NOTE });
      if (price.published) return;
      // tts's own history in this table is its one 1-credit charge plus the 4 and 6 given it.
      expect(price.recent).toEqual(
        action === 'tts'
          ? { count: 3, credits: 3.7, basis: 'the last 3 cost about 3.7 credits each' }
          : { count: 2, credits: 5, basis: 'the last 2 cost about 5 credits each' },
      );
      expect(describePrice(price)).toMatch(/not published\. On this connection the last/);
    });
  }

  it("character swap: the model list's unit_credit of the named model and resolution, else the interface's table", async () => {
    const models = async () =>
      [
        {
          type: 2101,
          value: 'm2',
          label: 'M2',
          resolutionList: [{ label: '720p', value: '720p', width: 1280, height: 720, unit_credit: 12 }],
        },
      ] as never;
    const listed = await modelPriceEstimator(models)('character-swap', {
      duration: 12,
      resolution: '720p',
      model_name: 'm2',
    });
    expect(priceOf('character-swap', listed, [])).toEqual({
      published: true,
      credits: 36,
      basis: swapCost(12, 12, '720p').basis,
    });
    expect(
      jobPrice('character-swap', { duration: 12, resolution: '1080p' }, []).published &&
        jobPrice('character-swap', { duration: 12, resolution: '1080p' }, []),
    ).toMatchObject({ credits: 45 });
    // No duration yet: the price cannot be said, and is not made up.
    expect(jobPrice('character-swap', { resolution: '720p' }, [])).toMatchObject({ published: false, recent: null });
  });

  it('prices a body whose media are still local files like the links they will become', () => {
    expect(
      jobPrice(
        'character-swap',
        { image: 'file:///home/me/c.png', video: 'file:///home/me/s.mp4', duration: 5, resolution: '480p' },
        [],
      ),
    ).toMatchObject({ published: true, credits: 5 });
  });

  it('the recent guide looks at the latest five charges only, and says when they were all the same', () => {
    const history = [charge('tts', 9, 0), ...[1, 2, 3, 4, 5].map((at) => charge('tts', 1, at))];
    expect(recentCost('tts', history)).toEqual({ count: 5, credits: 1, basis: 'the last 5 cost 1 credit each' });
    expect(recentCost('lipsync', history)).toBeNull();
  });
});

describe('a batch asked as one question', () => {
  it('adds the published prices and the guides, and says which part is not published', () => {
    const tts = priceOf('tts', null, [charge('tts', 1, 1)]);
    const total = totalPrice(Array.from({ length: 60 }, () => tts));
    expect(total).toEqual({ count: 60, published: 0, unpublished: 60, likely: 60 });
    const price = combinedPrice(
      Array.from({ length: 60 }, () => tts),
      'Speech',
    );
    expect(price).toMatchObject({
      published: false,
      note: expect.stringMatching(
        /^60 × speech: The service charges for this; its price is not published\. .*about 60 credits in total/,
      ),
      recent: { credits: 60 },
    });
    const swaps = combinedPrice(
      [
        priceOf('character-swap', { credits: 30, basis: 'x' }, []),
        priceOf('character-swap', { credits: 10, basis: 'y' }, []),
      ],
      'Character swap',
    );
    expect(swaps).toMatchObject({ published: true, credits: 40 });
    expect(totalPrice([priceOf('tts', null, [])]).likely).toBeNull();
  });
});

describe('confirmations', () => {
  const swap = priceOf('character-swap', { credits: 30, basis: '12 s at 720p' }, []);
  const speech = priceOf('tts', null, []);
  const none = { skipQuestionUnder: null };

  it('refuses a create nobody agreed to pay for', () => {
    expect(confirmationRefusal('tts', speech, undefined, none)).toMatch(/not confirmed/);
  });

  it("accepts the user's answer only for the price it named", () => {
    expect(confirmationRefusal('character-swap', swap, { by: 'user', credits: 30 }, none)).toBeNull();
    expect(confirmationRefusal('character-swap', swap, { by: 'user', credits: 25 }, none)).toMatch(/now 30 credits/);
    expect(confirmationRefusal('character-swap', swap, { by: 'user', credits: null }, none)).toMatch(
      /confirm it again/,
    );
    expect(confirmationRefusal('tts', speech, { by: 'user', credits: null }, none)).toBeNull();
    expect(confirmationRefusal('tts', speech, { by: 'user', credits: 1 }, none)).toMatch(/no longer/);
  });

  it("lets a published price under the user's limit go unasked, and nothing else", () => {
    expect(
      confirmationRefusal('character-swap', swap, { by: 'limit', credits: 30 }, { skipQuestionUnder: 30 }),
    ).toBeNull();
    expect(
      confirmationRefusal('character-swap', swap, { by: 'limit', credits: 30 }, { skipQuestionUnder: 29 }),
    ).toMatch(/over the 29 credits limit/);
    expect(confirmationRefusal('character-swap', swap, { by: 'limit', credits: 30 }, none)).toMatch(/unset/);
    expect(confirmationRefusal('tts', speech, { by: 'limit', credits: 0 }, { skipQuestionUnder: 100 })).toMatch(
      /no published price/,
    );
  });

  it("takes a script's --yes, and a batch confirmation only for that batch's rows", () => {
    expect(confirmationRefusal('tts', speech, { by: 'script' }, none)).toBeNull();
    expect(confirmationRefusal('tts', speech, { by: 'batch', batchId: 'b1' }, none, 'b1')).toBeNull();
    expect(confirmationRefusal('tts', speech, { by: 'batch', batchId: 'b1' }, none, 'b2')).toMatch(
      /not one of its rows/,
    );
    expect(confirmationRefusal('tts', speech, { by: 'batch', batchId: 'b1' }, none)).toMatch(/not one of its rows/);
  });
});

describe("the day's spending limit", () => {
  it('refuses what would pass it, counting an unpublished price by its guide, and says what was spent', () => {
    const swap = priceOf('character-swap', { credits: 30, basis: 'x' }, []);
    expect(dailyLimitRefusal(undefined, 1000, swap, 'Sandbox')).toBeNull();
    expect(dailyLimitRefusal(100, 70, swap, 'Sandbox')).toBeNull();
    expect(dailyLimitRefusal(100, 71, swap, 'Sandbox')).toBe(
      'Today\'s spending limit for "Sandbox" is 100 credits; 71 credits are spent or on their way, and this costs 30 credits. Nothing was sent. Raise the limit in Settings, or wait until tomorrow.',
    );
    const guided = priceOf('tts', null, [charge('tts', 2, 1)]);
    expect(dailyLimitRefusal(10, 9, guided, 'Sandbox')).toMatch(/costs about 2 credits \(judging by recent charges\)/);
  });

  it('never counts a price nobody can say ahead as free: it goes only while some of the limit is left', () => {
    const unknown = priceOf('tts', null, []);
    expect(expectedCredits(unknown)).toBeNull();
    expect(limitCheckableAhead(unknown)).toBe(false);
    expect(dailyLimitRefusal(0, 0, unknown, 'Sandbox')).toMatch(
      /^Today's spending limit for "Sandbox" is 0 credits; 0 credits are spent or on their way, and this costs a price the service does not publish .*nothing of the limit is left\. Nothing was sent\./,
    );
    expect(dailyLimitRefusal(5, 5, unknown, 'Sandbox')).toMatch(/nothing of the limit is left/);
    expect(dailyLimitRefusal(5, 4, unknown, 'Sandbox')).toBeNull();
    expect(dailyLimitRefusal(undefined, 99, unknown, 'Sandbox')).toBeNull();
  });
});
