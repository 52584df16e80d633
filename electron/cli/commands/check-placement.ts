import { resolveMediaBinary } from '../../services/media/binaries';
import { PlacementChecker, balanceThrough } from '../../services/placement/placement-check';
import { placementLabel } from '../../common/composition/placement';
import { openCliHost } from '../cli-host';
import { EXIT, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import type { PlacementCheckPlan, PlacementCheckResult } from '../../common/bridge/placement';
import { reachOwnerHost } from '../owner-host';
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
  if (convention && result.connectionId === 'cli-base-url')
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
  paid: true,
  options: [JSON_OPTION],
  async run(args, io) {
    // Beside a studio that has the data folder open, it checks and stores the convention with its own services.
    const owner = await reachOwnerHost(args, io);
    if (owner) {
      try {
        if (!args.flags['--json'])
          io.err(`Running through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}).`);
        if (!sayPlan(args, io, await owner.owner.call('placement.plan'))) return EXIT.refused;
        const stop = owner.on('placement.step', ({ step }) => io.err(`  ${step}`));
        try {
          return sayResult(args, io, await owner.owner.call('placement.check', { by: 'script' }));
        } finally {
          stop();
        }
      } finally {
        owner.close();
      }
    }
    const host = openCliHost(args, io);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    try {
      const checker = new PlacementChecker({
        connections: host.target,
        engine: host.engine,
        catalogue: host.catalogue,
        upload: async (paths, signal) =>
          (await host.storage.uploader.uploadAll(paths, host.storage.storages.activeId(), { signal })).map(
            (r) => r.url,
          ),
        ffmpegPath: async () => (await resolveMediaBinary('ffmpeg', { env: io.env })).path,
        balance: () => balanceThrough(host.target),
        record: async (id, convention, at) => {
          if (id === 'cli-base-url') return;
          await host.connections.setPlacement(id, convention, at);
        },
      });
      if (!sayPlan(args, io, await checker.plan())) return EXIT.refused;
      return sayResult(
        args,
        io,
        await checker.run({
          confirmation: { by: 'script' },
          signal: interrupt.signal,
          onStep: (step) => io.err(`  ${step}`),
        }),
      );
    } finally {
      process.off('SIGINT', stop);
      await host.close();
    }
  },
};
