import { callChannels, type BridgeCalls } from '../common/bridge';
import { createDispatcher } from '../services/host/dispatcher';
import { openOwnerChannel, type OwnerChannel } from '../services/host/owner-channel';
import type { Handlers } from '../services/host/types';
import { CharacterSwapService } from '../services/tools/character-swap-service';
import { LipSyncService } from '../services/tools/lipsync-service';
import type { CliHost } from './cli-host';
import type { CliIo } from './command';
import { cliToolDeps } from './commands/tool-job';

type ServedCalls = Pick<
  Handlers<BridgeCalls>,
  'jobs.quote' | 'jobs.submit' | 'jobs.get' | 'connections.list' | 'catalogue.voices' | 'tools.lipsyncMeasure' | 'tools.lipsyncSend' | 'tools.swapQuote' | 'tools.swapSend'
>;

/**
 * A command-line run that owns the data folder takes the same commands a running studio takes (tts,
 * clone, lipsync and character-swap with links) from other `studio` processes, so a tts beside a long tts-batch is not
 * refused. It serves only the calls those commands make, with its own engine, catalogue and checks; the
 * arguments are validated by the shared dispatcher like any bridge call. Its engine follows the clients'
 * jobs with its own, and the run stays until its clients are done (see CliHost.close).
 */
export async function serveFolder(host: CliHost, io: CliIo): Promise<{ channel: OwnerChannel; dispose(): Promise<void> }> {
  const tools = cliToolDeps(host, io);
  const lipsync = new LipSyncService(tools.deps);
  const swap = new CharacterSwapService(tools.deps);
  const served: ServedCalls = {
    'jobs.quote': (items) => host.engine.quote(items),
    'jobs.submit': (submission) => host.engine.submit(submission),
    'jobs.get': async (id) => host.engine.get(id),
    // The connection this run sends new work to stands as the active one: a client asking for another is refused.
    'connections.list': async () => ({ ...(await host.connections.state()), activeId: (await host.target.active()).id }),
    'catalogue.voices': (query) => host.catalogue.voices(query),
    'tools.lipsyncMeasure': async (inputs) => {
      await host.sandboxServing([inputs.video, inputs.audio]);
      return lipsync.measure(inputs);
    },
    'tools.lipsyncSend': (inputs) => lipsync.send(inputs),
    'tools.swapQuote': async (inputs) => {
      await host.sandboxServing([inputs.image, inputs.video]);
      return swap.quote(inputs);
    },
    'tools.swapSend': (request) => swap.send(request),
  };
  const handlers = Object.fromEntries(
    callChannels.map((channel) => [
      channel,
      Object.hasOwn(served, channel)
        ? served[channel as keyof ServedCalls]
        : async () => {
            throw new Error(`${channel} is not served by a command-line run; close it or wait for it to end`);
          },
    ]),
  ) as unknown as Handlers<BridgeCalls>;
  // Clients' jobs are followed by this run's engine from the first call (start is idempotent).
  host.engine.start();
  const dispatch = createDispatcher({ handlers, log: host.log, redact: (text) => text });
  const channel = await openOwnerChannel({
    dataDir: host.dataDir,
    kind: 'command line',
    dispatch,
    subscribe: (listener) => host.engine.subscribe((job) => listener('jobs.changed', job)),
    log: host.log,
  });
  return { channel, dispose: () => tools.toolkit.dispose() };
}
