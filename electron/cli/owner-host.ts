import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFinalPhase, type EventChannel, type EventPayloads, type JobView } from '../common/bridge';
import { SANDBOX_CONNECTION_ID } from '../common/bridge/connections';
import type { CatalogueService } from '../services/catalogue/catalogue-service';
import { defaultDataDir } from '../services/host/data-dir';
import { OwnerCallError, reachOwner, type OwnerLink } from '../services/host/owner-client';
import type { JobEngine } from '../services/jobs/engine';
import { RefusedError, flag, type CliIo, type ParsedArgs } from './command';

/** What a command needs of a job engine: the CLI's own, or the owner's through its channel. */
export type CommandEngine = Pick<JobEngine, 'quote' | 'submit' | 'subscribe' | 'get' | 'waitFor'>;

/** A running studio that owns the data folder and performs this command's work with its own services. */
export interface OwnerHost {
  owner: OwnerLink;
  engine: CommandEngine;
  catalogue: Pick<CatalogueService, 'voices'>;
  /**
   * A medium as the owner may use it: a link as given; a local file (resolved against the caller's
   * folder) handed to the owner, which checks it and answers its reference. `name` says which flag gave
   * it, for the refusal.
   */
  media(value: string, name: string): Promise<string>;
  /** Follows one of the owner's events (besides the jobs' progress, which the engine follows). */
  on<E extends FollowedEvent>(event: E, handler: (payload: EventPayloads[E]) => void): () => void;
  close(): void;
}

/** The owner's events a command may follow: its jobs, uploads, downloads, batches and a placement check's steps. */
const FOLLOWED = [
  'jobs.changed',
  'uploads.progress',
  'downloads.changed',
  'batches.changed',
  'placement.step',
] as const satisfies readonly EventChannel[];
type FollowedEvent = (typeof FOLLOWED)[number];

/** A local file a command line named, as an absolute path; null for an http(s) link. */
export function localFileOf(value: string, cwd: string): string | null {
  if (/^https?:\/\//i.test(value)) return null;
  return resolve(cwd, value.startsWith('file:') ? fileURLToPath(value) : value);
}

/**
 * The owner's job engine as a command uses it: creates, quotes and reads are bridge calls the owner
 * validates and performs (its engine still refuses an unconfirmed create); a job's progress arrives as
 * the owner's `jobs.changed` events, the same ones its Library shows.
 */
function ownerEngine(owner: OwnerLink): CommandEngine & { seen(job: JobView): void } {
  const latest = new Map<string, JobView>();
  const listeners = new Set<(job: JobView) => void>();
  const waiting = new Map<string, Set<(job: JobView) => void>>();
  const seen = (job: JobView) => {
    latest.set(job.id, job);
    for (const listener of [...listeners]) listener(job);
    if (!isFinalPhase(job.phase)) return;
    for (const done of waiting.get(job.id) ?? []) done(job);
    waiting.delete(job.id);
  };
  return {
    seen,
    quote: (items) => owner.call('jobs.quote', [...items]),
    async submit(submission) {
      const result = await owner.call('jobs.submit', submission);
      if (result.status === 'submitted') latest.set(result.job.id, result.job);
      return result;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get(id) {
      const job = latest.get(id);
      if (!job) throw new Error(`No job ${id} seen through the owner`);
      return job;
    },
    waitFor(id) {
      const ended = new Promise<JobView>((resolve) => {
        const set = waiting.get(id) ?? new Set();
        set.add(resolve);
        waiting.set(id, set);
      });
      // An end that came before the wait began is read back once; later ends arrive as events.
      void owner.call('jobs.get', id).then(seen, () => undefined);
      // An owner that quits mid-job ends the wait with its reason, never a silent exit.
      return Promise.race([ended, owner.lost]);
    },
  };
}

/**
 * Connects to the running studio that owns the command's data folder, or answers null when none runs
 * (the CLI then owns the folder itself). The owner sends new work to its active connection; a command
 * line that chose another (by default the sandbox, or --connection NAME) is refused before anything is
 * sent rather than quietly sent elsewhere. --base-url brings its own credentials, which an owner does
 * not have, so it never goes through one.
 */
export async function reachOwnerHost(
  args: ParsedArgs,
  io: CliIo,
  options: { sendsWork?: boolean } = {},
): Promise<OwnerHost | null> {
  if (flag(args, '--base-url') !== undefined) return null;
  const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
  const owner = await reachOwner(dataDir);
  if (!owner) return null;
  // Saving results or uploading files sends no new work to a connection: whichever is active will do.
  if (options.sendsWork === false) return ownerHost(owner, io);
  try {
    const state = await owner.call('connections.list');
    const wanted = flag(args, '--connection') ?? 'Sandbox';
    const active = state.connections.find((c) => c.id === state.activeId);
    const matches =
      wanted.toLowerCase() === 'sandbox'
        ? state.activeId === SANDBOX_CONNECTION_ID
        : active?.name.toLowerCase() === wanted.toLowerCase();
    if (!matches) {
      throw new RefusedError(
        `Nothing was sent: the ${owner.kind} that has this data folder open sends new work to "${active?.name ?? state.activeId}", not "${wanted}". ` +
          `Pass --connection "${active?.name ?? state.activeId}" to send it there, or make "${wanted}" the active connection in the studio.`,
      );
    }
  } catch (error) {
    owner.close();
    throw error;
  }
  return ownerHost(owner, io);
}

function ownerHost(owner: OwnerLink, io: CliIo): OwnerHost {
  const engine = ownerEngine(owner);
  const handlers = new Map<EventChannel, Set<(payload: unknown) => void>>();
  owner.listen(FOLLOWED, <E extends EventChannel>(event: E, payload: EventPayloads[E]) => {
    if (event === 'jobs.changed') engine.seen(payload as JobView);
    for (const handler of handlers.get(event) ?? []) handler(payload);
  });
  const named = new Map<string, Promise<string>>();
  return {
    owner,
    engine,
    catalogue: { voices: (query) => owner.call('catalogue.voices', query) },
    media(value, name) {
      const path = localFileOf(value, io.cwd);
      if (path === null) return Promise.resolve(value);
      // The same file named twice (--video and --audio of one clip) is handed over once.
      const known = named.get(path);
      if (known) return known;
      const reference = owner.nameFile(path, 'media').then(
        (chosen) => chosen.url,
        (error: unknown) => {
          // The owner's check of the file (not a regular file, too large, not media): nothing was sent.
          if (error instanceof OwnerCallError && error.code !== 'not-served')
            throw new RefusedError(`Not sent: ${name} ${value}: ${error.message}`);
          throw error;
        },
      );
      named.set(path, reference);
      return reference;
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      set.add(handler as (payload: unknown) => void);
      handlers.set(event, set);
      return () => set.delete(handler as (payload: unknown) => void);
    },
    close: () => owner.close(),
  };
}
