import { placementLabel } from '../../common/composition/placement';
import { sayWhere, withStudio } from '../cli-host';
import { BASE_URL_CONNECTION_ID } from '../cli-route';
import { EXIT, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import type { PlacementCheckPlan, PlacementCheckResult } from '../../common/bridge/placement';
import { JSON_OPTION } from '../common-options';

/** What would be sent, its cost and the balance; true when --yes lets it go. */
function sayPlan(args: ParsedArgs, io: CliIo, plan: PlacementCheckPlan): boolean {
  io.err(`Check placement on "${plan.connectionName}": ${plan.summary}`);
  io.err(
    `Cost: ${plan.estimate ? `about ${plan.estimate.credits} credits (${plan.estimate.basis})` : 'the service publishes no price for a talking avatar; it is one short job'}.`,
  );
  if (plan.balance !== null) io.err(`Balance: ${plan.balance} credits.`);
  if (args.flags['--yes'] === true) return true;
  io.err('Nothing was sent. Run again with --yes to send it.');
  return false;
}

function sayResult(args: ParsedArgs, io: CliIo, result: PlacementCheckResult): number {
  if (args.flags['--json']) io.out(JSON.stringify(result, null, 2));
  else io.out(result.message);
  // A proved check always names the convention it found.
  const convention = result.proved ? result.convention : undefined;
  if (convention && result.connectionId === BASE_URL_CONNECTION_ID)
    io.err(`Not stored: --base-url is not a saved connection. Its placement is ${placementLabel(convention)}.`);
  else if (convention)
    io.err(`Stored on "${result.connectionName}": every body sent through it now uses ${placementLabel(convention)}.`);
  return result.proved ? EXIT.ok : EXIT.failed;
}

/**
 * `studio check-placement [--connection NAME] [--yes]`: measures how the service places elements (one
 * small paid talking avatar) and stores the convention on the connection. Without --yes it only says
 * what would be sent and what it may cost.
 */
export const checkPlacementCommand: CliCommand = {
  name: 'check-placement',
  summary: 'Measure how the service places elements (one small paid job) and store it on the connection',
  makes: ['talking-avatar'],
  options: [JSON_OPTION],
  async run(args, io) {
    // The studio checks and stores the convention with its own services (one that has the folder open, or this run's).
    return withStudio(args, io, 'writes', async (studio) => {
      sayWhere(studio, args, io);
      if (!sayPlan(args, io, await studio.call('placement.plan'))) return EXIT.refused;
      const stop = studio.on('placement.step', ({ step }) => io.err(`  ${step}`));
      try {
        return sayResult(args, io, await studio.call('placement.check', { by: 'script' }));
      } finally {
        stop();
      }
    });
  },
};
