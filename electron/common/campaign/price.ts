import type { PriceQuote, QuoteItem } from '../bridge/jobs';
import type { Project, ProjectKind } from '../composition/document';
import { campaignFormats } from './campaign-formats';
import {
  combinedPrice,
  confirmationRefusal,
  dailyLimitRefusal,
  type PaidConfirmation,
  type Price,
  type SpendingPolicy,
} from '../jobs/cost-model';

/**
 * A campaign's price, from the one cost model: each row's voiceovers (an avatar video speaks audio the
 * studio makes first, one speech job per scene with a script) plus its video. A talking avatar speaks
 * its text itself, so its row is one job. Asked once for the whole campaign.
 */

/** The paid jobs one row makes: its voiceovers (shared by every format), then one video per format. */
export function rowJobs(project: Project, target: ProjectKind = project.kind): { voiceovers: number; videos: number } {
  const videos = campaignFormats(project).length;
  if (target === 'talking-avatar') return { voiceovers: 0, videos };
  return { voiceovers: project.scenes.filter((s) => s.voice?.kind === 'tts' && !s.voice.audioUrl).length, videos };
}

/** The lines of the campaign's one question: all voiceovers, then all videos (every format of every row). */
export function campaignQuoteItems(projects: readonly Project[], target: ProjectKind): QuoteItem[] {
  const voiceovers = projects.reduce((sum, p) => sum + rowJobs(p, target).voiceovers, 0);
  const videos = projects.reduce((sum, p) => sum + rowJobs(p, target).videos, 0);
  const items: QuoteItem[] = [];
  if (voiceovers > 0) items.push({ action: 'tts', count: voiceovers });
  if (videos > 0) items.push({ action: target, count: videos });
  return items;
}

/** Every line of a quote as one price: published only when every line is. */
export function campaignPrice(quote: PriceQuote): Price {
  const prices = quote.items.flatMap((item) => Array.from({ length: item.count }, () => item.price));
  return combinedPrice(prices, 'paid jobs of the campaign');
}

/**
 * Why the campaign may not start at this price, or null: the user's answer must cover it (the price is
 * asked again when it changed) and today's spending limit must have room for all of it.
 */
export function campaignRefusal(
  quote: PriceQuote,
  target: ProjectKind,
  confirmation: PaidConfirmation | undefined,
  policy: Pick<SpendingPolicy, 'skipQuestionUnder'>,
): { message: string; code: 'confirmation-required' | 'spending-limit' } | null {
  const price = campaignPrice(quote);
  const unconfirmed = confirmationRefusal(target, price, confirmation, policy);
  if (unconfirmed) return { message: unconfirmed, code: 'confirmation-required' };
  const overLimit = dailyLimitRefusal(quote.dailyLimit ?? undefined, quote.spentToday, price, quote.connectionName);
  if (overLimit) return { message: overLimit, code: 'spending-limit' };
  return null;
}
