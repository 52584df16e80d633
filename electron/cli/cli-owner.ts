import { join } from 'node:path';
import { callChannels, type BridgeCalls, type EventChannel, type EventPayloads } from '../common/bridge';
import type { EventListener } from '../services/host/compose';
import { AvatarsService } from '../services/avatars/avatars-service';
import { createDispatcher } from '../services/host/dispatcher';
import { StudioError } from '../services/host/errors';
import { openOwnerChannel, type OwnerChannel } from '../services/host/owner-channel';
import type { Handlers } from '../services/host/types';
import { LocalGrants } from '../services/media/local-grants';
import { importPath } from '../services/media/local-import';
import { LocalMediaLinker } from '../services/storage/local-media-linker';
import { CharacterSwapService } from '../services/tools/character-swap-service';
import { LipSyncService } from '../services/tools/lipsync-service';
import type { CliHost } from './cli-host-types';
import type { CliIo } from './command';
import { cliToolDeps } from './commands/tool-job';

type ServedCalls = Pick<
  Handlers<BridgeCalls>,
  | 'jobs.quote'
  | 'jobs.submit'
  | 'jobs.get'
  | 'connections.list'
  | 'catalogue.voices'
  | 'tools.lipsyncMeasure'
  | 'tools.lipsyncSend'
  | 'tools.swapQuote'
  | 'tools.swapSend'
  | 'uploads.linkLocalMedia'
  | 'uploads.cancel'
  | 'storage.list'
  | 'avatars.checkUpload'
  | 'avatars.upload'
>;

/** What a command-line run does not do for others (downloads, batches): the command waits for it to end. */
const notServed = (what: string) =>
  new StudioError(
    `${what}: a command-line run that has the data folder open serves tts, clone, lipsync, character-swap, avatars upload and upload only; run this once it ends, or beside the studio`,
    'not-served',
  );

/**
 * A command-line run that owns the data folder takes the same commands a running studio takes (tts,
 * clone, lipsync, character-swap and avatars upload, with links or local files) from other `studio`
 * processes, so a tts beside a long tts-batch is not refused. It serves only the calls those commands
 * make, with its own engine, catalogue and checks; the arguments are validated by the shared dispatcher
 * like any bridge call. A local file is read only once a client named it (granted then, as the page's
 * chosen files are). Its engine follows the clients' jobs with its own, and the run stays until its
 * clients are done (see CliHost.close).
 */
export async function serveFolder(
  host: CliHost,
  io: CliIo,
): Promise<{ channel: OwnerChannel; dispose(): Promise<void> }> {
  const listeners = new Set<EventListener>();
  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]) =>
    listeners.forEach((listener) => listener(event, payload));
  // Kept for this run only: the files other commands named while it ran.
  const grants = new LocalGrants();
  const linker = new LocalMediaLinker({
    storage: host.storage,
    grants,
    onProgress: (progress) => emit('uploads.progress', progress),
  });
  const tools = cliToolDeps(host, io, { grants, linker });
  const lipsync = new LipSyncService(tools.deps);
  const swap = new CharacterSwapService(tools.deps);
  const avatars = new AvatarsService({
    activeClient: async () => host.target.client((await host.target.active()).id),
    link: async (source) => (await linker.linkFor('avatar')(source)).value as string,
    submit: (submission) => host.engine.submit(submission),
    uploadsChanged: () => undefined,
  });
  const served: ServedCalls = {
    'jobs.quote': (items) => host.engine.quote(items),
    'jobs.submit': (submission) => host.engine.submit(submission),
    'jobs.get': async (id) => host.engine.get(id),
    // The connection this run sends new work to stands as the active one: a client asking for another is refused.
    'connections.list': async () => ({
      ...(await host.connections.state()),
      activeId: (await host.target.active()).id,
    }),
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
    'uploads.linkLocalMedia': ({ uploadId, value }) => linker.link(uploadId, value),
    'uploads.cancel': async (uploadId) => linker.cancel(uploadId),
    'storage.list': () => host.storage.storages.state(),
    'avatars.checkUpload': (request) => avatars.check(request),
    'avatars.upload': (request) => avatars.upload(request),
  };
  const handlers = Object.fromEntries(
    callChannels.map((channel) => [
      channel,
      Object.hasOwn(served, channel)
        ? served[channel as keyof ServedCalls]
        : async () => {
            throw notServed(channel);
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
    subscribe: (listener) => {
      listeners.add(listener);
      const stop = host.engine.subscribe((job) => listener('jobs.changed', job));
      return () => {
        stop();
        listeners.delete(listener);
      };
    },
    files: {
      importPath: (path) =>
        importPath({ dir: join(host.dataDir, 'imports'), grants, prober: tools.toolkit.prober }, path),
      importSheetPath: async () => {
        throw notServed('A voice batch');
      },
    },
    log: host.log,
  });
  return {
    channel,
    dispose: async () => {
      linker.cancelAll();
      await tools.toolkit.dispose();
    },
  };
}
