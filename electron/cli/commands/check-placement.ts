import { resolveMediaBinary } from '../../services/media/binaries';
import { PlacementChecker, balanceThrough } from '../../services/placement/placement-check';
import { placementLabel } from '../../common/composition/placement';
import { openCliHost } from '../cli-host';
import { EXIT, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';

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
    const host = openCliHost(args, io);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    try {
      const checker = new PlacementChecker({
        connections: host.target,
        engine: host.engine,
        catalogue: host.catalogue,
        upload: async (paths, signal) => (await host.storage.uploader.uploadAll(paths, host.storage.storages.activeId(), { signal })).map((r) => r.url),
        ffmpegPath: async () => (await resolveMediaBinary('ffmpeg', { env: io.env })).path,
        balance: () => balanceThrough(host.target),
        record: async (id, convention, at) => {
          if (id === 'cli-base-url') return;
          await host.connections.setPlacement(id, convention, at);
        },
      });
      const plan = await checker.plan();
      io.err(`Check placement on "${plan.connectionName}": ${plan.summary}`);
      io.err(`Cost: ${plan.estimate ? `about ${plan.estimate.credits} credits (${plan.estimate.basis})` : 'the service publishes no price for a talking avatar; it is one short job'}.`);
      if (plan.balance !== null) io.err(`Balance: ${plan.balance} credits.`);
      if (args.flags['--yes'] !== true) {
        io.err('Nothing was sent. Run again with --yes to send it.');
        return EXIT.refused;
      }
      const result = await checker.run({ confirmation: { by: 'script' }, signal: interrupt.signal, onStep: (step) => io.err(`  ${step}`) });
      if (args.flags['--json']) io.out(JSON.stringify(result, null, 2));
      else io.out(result.message);
      if (result.proved && result.connectionId === 'cli-base-url') io.err(`Not stored: --base-url is not a saved connection. Its placement is ${placementLabel(result.convention)}.`);
      else if (result.proved) io.err(`Stored on "${result.connectionName}": every body sent through it now uses ${placementLabel(result.convention)}.`);
      return result.proved ? EXIT.ok : EXIT.failed;
    } finally {
      process.off('SIGINT', stop);
      await host.close();
    }
  },
};
