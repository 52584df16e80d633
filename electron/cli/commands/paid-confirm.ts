import {
  PAID_ACTION_LABELS,
  combinedPrice,
  creditsText,
  describePrice,
  type PaidConfirmation,
  type PriceQuote,
  type QuoteItem,
} from '../../common/bridge/jobs';
import { coversText, describePause, quoteCovers, type RunPause } from '../../common/jobs/run-pause';
import { EXIT, RefusedError, type CliIo, type ParsedArgs } from '../command';
import { ask } from '../ask';
import type { StudioLink } from '../studio-link';

/**
 * The command line's price question, as the studio asks it: the price (or that it is not published,
 * with this connection's recent charges) and the balance, then "y" on a terminal. A script passes --yes;
 * without it and without a terminal nothing is sent.
 */
export async function confirmPaidCli(
  args: ParsedArgs,
  io: CliIo,
  studio: Pick<StudioLink, 'call'>,
  item: QuoteItem,
): Promise<PaidConfirmation> {
  const quote = await studio.call('jobs.quote', [item]);
  const label = PAID_ACTION_LABELS[item.action];
  const count = item.count ?? 1;
  // Several of one action (a batch) are asked once, with their total.
  const price =
    count === 1
      ? quote.items[0].price
      : combinedPrice(
          Array.from({ length: count }, () => quote.items[0].price),
          label,
        );
  if (args.flags['--json'] !== true || args.flags['--yes'] !== true) {
    io.err(
      `${count === 1 ? label : `${count} × ${label.toLowerCase()}`} on "${quote.connectionName}": ${describePrice(price)}${quote.balance === null ? '' : ` Balance: ${creditsText(quote.balance)}.`}`,
    );
  }
  if (count > 1) sayCovers(io, quote, count);
  if (args.flags['--yes'] === true || maxCreditsOf(args) !== undefined) return { by: 'script' };
  const asking = io.stdin !== undefined || process.stdin.isTTY === true;
  if (
    asking &&
    (await ask(
      io,
      price.published
        ? `Send it for ${creditsText(price.credits)}? [y/N]`
        : 'Send it (the price is not published)? [y/N]',
    ))
  ) {
    return { by: 'user', credits: price.published ? price.credits : null };
  }
  throw new RefusedError(
    `Nothing was sent: ${label.toLowerCase()} is paid. Answer y on a terminal, or pass --yes to send it from a script.`,
  );
}

/** The option that caps a batch's or campaign's spending; with it, a script needs no --yes (the run pauses there). */
export const MAX_CREDITS_OPTION = {
  name: '--max-credits',
  value: 'N',
  help: 'stop after N credits: the run pauses before a create that would pass it (exit 5); a script needs no --yes with it',
  range: { min: 1, max: 100_000_000, integer: true },
} as const;

/** The cap given on the command line (undefined: none given). */
export function maxCreditsOf(args: ParsedArgs): number | undefined {
  const given = args.flags['--max-credits'];
  return typeof given === 'string' ? Number(given) : undefined;
}

/** How many of the run's rows the balance covers, said before the question when it does not cover them all. */
export function sayCovers(io: CliIo, quote: Pick<PriceQuote, 'items' | 'balance'>, rows: number): void {
  const said = coversText(quote.balance, quoteCovers(quote, rows));
  if (said) io.err(said);
}

/**
 * A run that paused on its own (out of credits, today's limit, its cap): its reason and what is left on
 * stderr, a one-line hint, and the exit code that says so (5). Null when the run did not pause so.
 */
export function reportPause(io: CliIo, pause: RunPause | null | undefined, again: string): number | null {
  if (!pause) return null;
  io.err(describePause(pause));
  io.err(`To go on: ${pause.reason === 'cap' ? 'raise --max-credits and run' : 'run'} ${again} again.`);
  return EXIT.paused;
}
