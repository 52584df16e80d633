import { useDialog } from 'naive-ui';
import { h, ref } from 'vue';
import {
  PAID_ACTION_LABELS,
  combinedPrice,
  creditsText,
  dailyLimitRefusal,
  type PaidConfirmation,
  type Price,
  type PriceQuote,
  type QuoteItem,
} from '@common/bridge';
import { coversText, quoteCovers } from '@common/jobs/run-pause';
import { call } from '@/bridge';
import PriceSummary from '@/shell/PriceSummary.vue';

/** Bumped after every paid action, so the balance shown is read again at once. */
export const paidActions = ref(0);

export function notePaidAction(): void {
  paidActions.value += 1;
}

/** The one price a question names: the single item's, or the batch's total. */
export function priceOfQuote(quote: PriceQuote): Price {
  const [only] = quote.items;
  if (quote.items.length === 1 && only.count === 1) return only.price;
  const prices = quote.items.flatMap((i) => Array.from({ length: i.count }, () => i.price));
  const label = quote.items.length === 1 ? PAID_ACTION_LABELS[only.action] : 'paid jobs';
  return combinedPrice(prices, label);
}

/** The question's line of what is made, and how many of its rows the balance covers when it does not cover them all. */
function whatWithCovers(question: PaidQuestion, quote: PriceQuote): string | undefined {
  const covers = question.rows ? coversText(quote.balance, quoteCovers(quote, question.rows)) : null;
  return [question.what, covers].filter(Boolean).join(' ') || undefined;
}

/** What the user agreed to, in the form the engine checks. */
export function confirmationFor(price: Price): PaidConfirmation {
  return { by: 'user', credits: price.published ? price.credits : null };
}

export interface PaidQuestion {
  /** The dialog's title: "Generate voiceover?", "Send 60 voiceovers?". */
  title: string;
  items: QuoteItem[];
  /** One line saying what will be made, when the items alone do not say it. */
  what?: string;
  /** The rows of a batch or campaign: the question then says how many of them the balance covers. */
  rows?: number;
}

/**
 * Asks before anything paid goes out: reads the price and the balance now, shows them (or that the price
 * is not published) and resolves with the confirmation to send along, or null when the user said no or
 * the day's limit refuses. A published price under the user's no-question limit goes without asking.
 * Call during setup (it needs the dialog provider).
 */
export function usePaidConfirm() {
  const dialog = useDialog();

  async function confirmPaid(question: PaidQuestion): Promise<PaidConfirmation | null> {
    let quote: PriceQuote;
    try {
      quote = await call('jobs.quote', question.items);
    } catch (error) {
      throw new Error(
        `The price could not be worked out, so nothing was sent: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const price = priceOfQuote(quote);
    const limit = dailyLimitRefusal(quote.dailyLimit ?? undefined, quote.spentToday, price, quote.connectionName);
    if (limit) {
      await new Promise<void>((resolve) => {
        dialog.error({
          title: "Over today's spending limit",
          content: limit,
          positiveText: 'OK',
          onPositiveClick: () => resolve(),
          onClose: () => resolve(),
          onMaskClick: () => resolve(),
        });
      });
      return null;
    }
    const under = quote.skipQuestionUnder;
    if (price.published && under !== null && price.credits <= under) return { by: 'limit', credits: price.credits };
    const agreed = await new Promise<boolean>((resolve) => {
      dialog.warning({
        title: question.title,
        content: () => h(PriceSummary, { quote, price, what: whatWithCovers(question, quote) }),
        positiveText: price.published ? `Send for ${creditsText(price.credits)}` : 'Send (price not published)',
        negativeText: 'Cancel',
        positiveButtonProps: { 'data-testid': 'price-confirm-send' } as never,
        negativeButtonProps: { 'data-testid': 'price-confirm-cancel' } as never,
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
      });
    });
    return agreed ? confirmationFor(price) : null;
  }

  return { confirmPaid };
}
