import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalogue } from './catalogue/catalogue';
import type { EmulatorContext } from './context';
import { Faults, type FaultRates } from './faults';
import { SandboxJobRunner, type Processor } from './jobs/engine';
import { processAvatarUpload } from './jobs/processors/avatar';
import { processCharacterSwap } from './jobs/processors/character-swap';
import { processAvatarVideo, processTalkingAvatar } from './jobs/processors/compose';
import { processLipSync } from './jobs/processors/lipsync';
import { processClone, processTts } from './jobs/processors/speech';
import { WebhookSender } from './jobs/webhooks';
import { CallbackFaultDelivery } from './jobs/callback-faults';
import { MediaFetcher } from './media/fetch';
import { MediaTools } from './media/tools';
import { resolveOptions, type EmulatorOptions } from './options';
import { audioRoutes } from './routes/audio';
import { authRoutes } from './routes/auth';
import { avatarRoutes } from './routes/avatar';
import { characterSwapRoutes } from './routes/character-swap';
import { composeRoutes } from './routes/compose';
import { faceRoutes } from './routes/faces';
import { fileRoutes } from './routes/files';
import { uploadRoutes } from './routes/uploads';
import { liveRoutes } from './routes/live';
import { miscRoutes } from './routes/misc';
import { videoRoutes } from './routes/video';
import { closeServers, listenOnce, serveEarlierPorts } from './listen';
import { createServer } from './server';
import { sealWebhook } from '../services/webhooks/webhook-crypto';
import { Accounts } from './state/accounts';
import { Files } from './state/files';
import { StateStore } from './state/store';
import { sandboxAccessKey } from './state/access-key';
import type { JobKind } from './state/types';
import { Views } from './views';

export type { EmulatorOptions } from './options';
export { DEFAULTS as EMULATOR_DEFAULTS } from './options';

/**
 * Where the sandbox's generated sample media are kept for every data folder of this user:
 * STUDIO_CACHE_DIR, else the platform's cache folder.
 */
export function sharedCacheDir(): string {
  if (process.env.STUDIO_CACHE_DIR) return join(process.env.STUDIO_CACHE_DIR, 'sandbox-catalogue');
  const home = homedir();
  const base =
    process.platform === 'win32'
      ? (process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? join(home, 'Library', 'Caches')
        : (process.env.XDG_CACHE_HOME ?? join(home, '.cache'));
  return join(base, 'avatar-studio', 'sandbox-catalogue');
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4780 */
  url: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  dataDir: string;
  /** Current credit balance of the sandbox account. */
  credits(): number;
  setCredits(credits: number): void;
  /** Adds credits to the balance (a top-up); answers the new balance. */
  topUp(credits: number): number;
  /** Changes fault injection while running. */
  setFaults(faults: Partial<FaultRates>): void;
  close(): Promise<void>;
}

/**
 * Starts the sandbox service: the whole interface on one HTTP server, records and results under
 * `dataDir` (a temporary folder, removed on close, unless one is given). Resolves once it accepts
 * requests.
 */
export async function startEmulator(input: EmulatorOptions = {}): Promise<RunningEmulator> {
  const ownDir = input.dataDir === undefined;
  const dataDir = input.dataDir ?? mkdtempSync(join(tmpdir(), 'avatar-studio-sandbox-'));
  mkdirSync(dataDir, { recursive: true });
  // No well-known key: one generated per data folder unless the caller names one.
  const generated = sandboxAccessKey(dataDir);
  const options = resolveOptions({
    ...input,
    apiKey: input.apiKey ?? generated.apiKey,
    clientSecret: input.clientSecret ?? generated.clientSecret,
  });
  const store = new StateStore(dataDir, options.log);
  // Throwaway sandboxes (tests, quick tries) share one sample-media cache instead of regenerating it.
  const catalogueRoot = options.catalogueDir ?? sharedCacheDir();
  const files = new Files(store, options.resultTtlSeconds * 1000, options.now, catalogueRoot);
  files.clearWork();
  const accounts = new Accounts(store, options);
  const tools = new MediaTools(options, [files.filesDir, files.catalogueDir]);
  const catalogue = new Catalogue(files.catalogueDir, tools, options.log);
  const views = new Views(files);
  const webhooks = new WebhookSender(options.webhookAttempts, options.webhookBackoffMs, options.log);
  const faults = new Faults({
    failRate: options.failRate,
    latencyMs: options.latencyMs,
    http5xxRate: options.http5xxRate,
    dropRate: options.dropRate,
    tooFrequentRate: options.tooFrequentRate,
    dropAfterCreateRate: options.dropAfterCreateRate,
  });
  const ctx = {
    options,
    store,
    accounts,
    files,
    tools,
    catalogue,
    views,
    faults,
    fetcher: new MediaFetcher(files, dataDir, fetch, () => catalogue.ensure()),
  } as EmulatorContext;
  const bind =
    (fn: (c: EmulatorContext, ...rest: Parameters<Processor>) => ReturnType<Processor>): Processor =>
    (job, p) =>
      fn(ctx, job, p);
  const processors: Record<JobKind, Processor> = {
    tts: bind(processTts),
    clone: bind(processClone),
    lipsync: bind(processLipSync),
    avatar_video: bind(processAvatarVideo),
    talking_avatar: bind(processTalkingAvatar),
    character_swap: bind(processCharacterSwap),
    avatar: bind(processAvatarUpload),
  };
  ctx.engine = new SandboxJobRunner({
    store,
    files,
    accounts,
    webhooks,
    processors,
    jobSeconds: options.jobSeconds,
    now: options.now,
    log: options.log,
    jobTimeoutMs: options.jobTimeoutSeconds === undefined ? undefined : options.jobTimeoutSeconds * 1000,
    maxResultBytes: options.maxResultMb === undefined ? undefined : options.maxResultMb * 1024 * 1024,
    webhookType: (job) => views.webhookType(job),
    sealWebhook: (event) =>
      sealWebhook(event, { clientId: options.clientId, clientSecret: options.clientSecret }, options.now()),
    callbackFaults: new CallbackFaultDelivery({
      faults: () => faults.callbackFaults(),
      seal: (event) =>
        sealWebhook(event, { clientId: options.clientId, clientSecret: options.clientSecret }, options.now()),
      forgedUrl: (id) => `https://forged.invalid/${id}.mp4`,
      delayMs: () => faults.rates.callbackDelayMs ?? 2_000,
      log: options.log,
    }),
    failJob: () => faults.failJob(),
    jobsMayEnd: () => faults.whenJobsMayEnd(),
    makeWorkDir: async (id) => {
      const dir = join(files.workDir, id);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    removeWorkDir: (dir) => rm(dir, { recursive: true, force: true }),
  });

  // Generated once per install, in the background: the sandbox answers at once, and what needs the
  // sample files waits for them.
  catalogue
    .ensure()
    .catch((error: Error) => options.log(`sandbox sample media could not be prepared: ${error.message}`));
  const app = createServer(ctx);
  await fileRoutes(app, ctx);
  await uploadRoutes(app, ctx);
  authRoutes(app, ctx);
  faceRoutes(app, ctx);
  const live = liveRoutes(app, ctx);
  audioRoutes(app, ctx);
  videoRoutes(app, ctx);
  avatarRoutes(app, ctx);
  composeRoutes(app, ctx);
  characterSwapRoutes(app, ctx);
  miscRoutes(app, ctx);

  const port = await listenOnce(app, options.port, options.host, options.portFallback === true);
  const host = options.host.includes(':')
    ? `[${options.host}]`
    : options.host === '0.0.0.0'
      ? '127.0.0.1'
      : options.host;
  const url = `http://${host}:${port}`;
  files.baseUrl = url;
  files.earlierPorts = (options.earlierPorts ?? []).filter((earlier) => earlier !== port);
  const aliases = await serveEarlierPorts(app, files.earlierPorts, options.host, options.log);

  files.sweep();
  const sweeper = setInterval(() => files.sweep(), 3600_000);
  sweeper.unref();
  const resumed = ctx.engine.resumeUnfinished();
  live.resume();
  if (resumed) options.log(`resumed ${resumed} unfinished job(s)`);

  let closed = false;
  return {
    url,
    apiKey: options.apiKey,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    dataDir,
    credits: () => accounts.account.credits,
    setCredits: (n) => accounts.setCredits(n),
    topUp: (n) => {
      accounts.setCredits(accounts.account.credits + n);
      return accounts.account.credits;
    },
    setFaults: (f) => Object.assign(faults.rates, f),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      live.close();
      await ctx.engine.close();
      await webhooks.close(500);
      await tools.stop();
      await closeServers(aliases);
      await app.close();
      store.close();
      await store.idle();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
