import {
  PAID_ACTION_LABELS,
  combinedPrice,
  creditsText,
  describePrice,
  type PaidConfirmation,
  type QuoteItem,
} from '../../common/bridge/jobs';
import { RefusedError, type CliIo, type ParsedArgs } from '../command';
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
  if (args.flags['--yes'] === true) return { by: 'script' };
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
