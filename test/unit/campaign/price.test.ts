import { describe, expect, it } from 'vitest';
import type { PriceQuote } from '@common/bridge/jobs';
import { campaignPrice, campaignQuoteItems, campaignRefusal, rowJobs } from '@common/campaign/price';
import type { Project } from '@common/composition';
import { loadTemplate } from './template-fixture';

const quote = (items: PriceQuote['items'], extra: Partial<PriceQuote> = {}): PriceQuote => ({
  items,
  connectionId: 'c',
  connectionName: 'Sandbox',
  balance: 100,
  balanceAt: 0,
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
  ...extra,
});
const published = (credits: number) => ({ published: true as const, credits, basis: `${credits} each` });

describe("a campaign's price", () => {
  const project = loadTemplate().project;

  it('counts one voiceover per scripted scene of an avatar video and one video per row; a talking avatar speaks itself', () => {
    expect(rowJobs(project)).toEqual({ voiceovers: 2, videos: 1 });
    expect(rowJobs(project, 'talking-avatar')).toEqual({ voiceovers: 0, videos: 1 });
    const voiced: Project = {
      ...project,
      scenes: [{ ...project.scenes[0], voice: { kind: 'url', url: 'https://cdn.example/v.mp3' } }, project.scenes[1]],
    };
    expect(campaignQuoteItems([project, project, voiced], 'avatar-video')).toEqual([
      { action: 'tts', count: 5 },
      { action: 'avatar-video', count: 3 },
    ]);
  });

  it('adds every line into one figure when all are published, and says so when some are not', () => {
    expect(
      campaignPrice(
        quote([
          { action: 'tts', count: 44, price: published(1) },
          { action: 'avatar-video', count: 22, price: published(10) },
        ]),
      ),
    ).toMatchObject({ published: true, credits: 264 });
    const unknown = campaignPrice(
      quote([
        { action: 'tts', count: 4, price: published(1) },
        { action: 'avatar-video', count: 2, price: { published: false, note: 'not published', recent: null } },
      ]),
    );
    expect(unknown).toMatchObject({ published: false, recent: null });
    expect(unknown.published === false && unknown.note).toMatch(
      /6 × paid jobs of the campaign: .*not published.* 4 credits of it is published/,
    );
  });

  it("starts only on an answer that covers this price and within the day's limit", () => {
    const q = quote([
      { action: 'tts', count: 2, price: published(1) },
      { action: 'avatar-video', count: 1, price: published(10) },
    ]);
    expect(campaignRefusal(q, 'avatar-video', undefined, { skipQuestionUnder: null })?.code).toBe(
      'confirmation-required',
    );
    expect(campaignRefusal(q, 'avatar-video', { by: 'user', credits: 11 }, { skipQuestionUnder: null })?.code).toBe(
      'confirmation-required',
    );
    expect(campaignRefusal(q, 'avatar-video', { by: 'user', credits: 12 }, { skipQuestionUnder: null })).toBeNull();
    expect(campaignRefusal(q, 'avatar-video', { by: 'script' }, { skipQuestionUnder: null })).toBeNull();
    const tight = quote(q.items, { dailyLimit: 20, spentToday: 9 });
    expect(campaignRefusal(tight, 'avatar-video', { by: 'script' }, { skipQuestionUnder: null })).toMatchObject({
      code: 'spending-limit',
      message: expect.stringMatching(/spending limit for "Sandbox" is 20 credits/),
    });
  });
});
