/* eslint-disable vue/one-component-per-file -- the dialog provider must sit above the component that asks */
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import { NDialogProvider } from 'naive-ui';
import type { PaidConfirmation, PriceQuote } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { usePaidConfirm, type PaidQuestion } from '@/composables/paid-confirm';
import { fakeApi } from '../library/fake-api';

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const quote = (patch: Partial<PriceQuote> = {}): PriceQuote => ({
  items: [
    {
      action: 'tts',
      count: 1,
      price: {
        published: false,
        note: 'The service charges for this; its price is not published.',
        recent: { count: 3, credits: 1, basis: 'the last 3 cost 1 credit each' },
      },
    },
  ],
  connectionId: 'sandbox',
  connectionName: 'Sandbox',
  balance: 950,
  balanceAt: Date.UTC(2026, 0, 1, 12),
  dailyLimit: null,
  spentToday: 0,
  skipQuestionUnder: null,
  ...patch,
});

/** Asks one question through the real dialog; resolves with what the caller would send along. */
async function ask(
  answer: PriceQuote,
  question: PaidQuestion = { title: 'Make this speech?', items: [{ action: 'tts' }] },
) {
  const fake = fakeApi({ 'jobs.quote': () => answer });
  useStudioApi(fake.api);
  let confirmPaid!: ReturnType<typeof usePaidConfirm>['confirmPaid'];
  const Inner = defineComponent({ setup: () => ((confirmPaid = usePaidConfirm().confirmPaid), () => null) });
  mount(defineComponent({ setup: () => () => h(NDialogProvider, null, { default: () => h(Inner) }) }), {
    attachTo: document.body,
  });
  const result = confirmPaid(question);
  await flushPromises();
  return {
    result,
    fake,
    text: () => document.body.textContent ?? '',
    button: (id: string) => document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`),
  };
}

describe('the price question', () => {
  it('reads the price and the balance now, says the price is not published with the recent guide, and sends on yes', async () => {
    const { result, text, button, fake } = await ask(quote());
    expect(fake.calls.map((c) => c.channel)).toEqual(['jobs.quote']);
    expect(text()).toMatch(/Make this speech\?/);
    expect(text()).toMatch(
      /The service charges for this; its price is not published\.\s*On this connection the last 3 cost 1 credit each\./,
    );
    expect(text()).toMatch(/Balance: 950 credits \(read at/);
    expect(button('price-confirm-send')?.textContent).toBe('Send (price not published)');
    button('price-confirm-send')?.click();
    expect(await result).toEqual<PaidConfirmation>({ by: 'user', credits: null });
  });

  it('names a published price and what is left, and sends nothing on Cancel', async () => {
    const swap = quote({
      items: [
        {
          action: 'character-swap',
          count: 1,
          price: { published: true, credits: 30, basis: '12 s at 720p: 3 started 5 s × 10 credits = 30 credits' },
        },
      ],
    });
    const { result, text, button } = await ask(swap);
    expect(text()).toMatch(/Price: 30 credits\s*12 s at 720p/);
    expect(text()).toMatch(/about 920 credits left after this/);
    expect(button('price-confirm-send')?.textContent).toBe('Send for 30 credits');
    button('price-confirm-cancel')?.click();
    expect(await result).toBeNull();
  });

  it('asks once with the total for a batch', async () => {
    const batch = quote({ items: [{ ...quote().items[0], count: 60 }] });
    const { result, text, button } = await ask(batch, {
      title: 'Send 60 voiceovers?',
      items: [{ action: 'tts', count: 60 }],
    });
    expect(text()).toMatch(
      /60 × speech: The service charges for this; its price is not published\. Judging by this connection's recent charges, about 60 credits in total\./,
    );
    expect(document.querySelectorAll('[data-testid="price-confirm-send"]')).toHaveLength(1);
    button('price-confirm-send')?.click();
    expect(await result).toEqual({ by: 'user', credits: null });
  });

  it("sends a published price under the user's limit without asking, and never an unpublished one", async () => {
    const swap = quote({
      skipQuestionUnder: 50,
      items: [{ action: 'character-swap', count: 1, price: { published: true, credits: 30, basis: 'x' } }],
    });
    const quiet = await ask(swap);
    expect(await quiet.result).toEqual({ by: 'limit', credits: 30 });
    expect(quiet.button('price-confirm-send')).toBeNull();
    const speech = await ask(quote({ skipQuestionUnder: 50 }));
    expect(speech.button('price-confirm-send')).not.toBeNull();
  });

  it("refuses past the day's limit and says so, sending nothing", async () => {
    const over = quote({
      dailyLimit: 100,
      spentToday: 80,
      items: [{ action: 'character-swap', count: 1, price: { published: true, credits: 30, basis: 'x' } }],
    });
    const { result, text } = await ask(over);
    expect(text()).toMatch(
      /Today's spending limit for "Sandbox" is 100 credits; 80 credits are spent or on their way, and this costs 30 credits\. Nothing was sent\./,
    );
    (document.querySelector('.n-dialog__action button') as HTMLButtonElement | null)?.click();
    expect(await result).toBeNull();
  });

  it("says the day's limit cannot be checked ahead for a price with no figure and no earlier charge, and refuses it once nothing of the limit is left", async () => {
    const unknown = {
      action: 'tts' as const,
      count: 1,
      price: {
        published: false as const,
        note: 'The service charges for this; its price is not published.',
        recent: null,
      },
    };
    const room = await ask(quote({ dailyLimit: 5, spentToday: 2, items: [unknown] }));
    expect(room.text()).toMatch(
      /Today's limit on this connection: 5 credits, 3 credits left\.\s*With no published price and no earlier charge to judge by, the limit cannot be checked ahead for this/,
    );
    expect(room.text()).not.toMatch(/left after this/);
    room.button('price-confirm-send')?.click();
    expect(await room.result).toEqual({ by: 'user', credits: null });
    document.body.innerHTML = '';
    const spent = await ask(quote({ dailyLimit: 5, spentToday: 5, items: [unknown] }));
    expect(spent.text()).toMatch(/nothing of the limit is left\. Nothing was sent\./);
    expect(spent.button('price-confirm-send')).toBeNull();
  });
});
