import { z } from 'zod';
import { SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import { LiveSession, LiveSessionEntry, type LiveChannel, type LiveFace } from '../../common/bridge/faces';
import { mediaRefusal, readableMedia } from '../../common/composition/media-fields';
import type { MediaInfo } from '../../common/composition/media-info';
import type { ServiceClient } from '../client/service-client';
import { ServiceError } from '../client/errors';
import { StudioError } from '../host/errors';
import type { PaidConfirmation, PastCharge } from '../../common/jobs/cost-model';
import type { Logger, RecordStore, RecordStoreSpec } from '../host/types';

const CLOSED_KEPT = 200;

/** Open sessions, written before the create is answered to the page, so a crash leaves a trace to close. */
const OpenSessions = z.object({
  sessions: z.array(LiveSession),
  /** What opening sessions cost on each connection (the guide for a price the service does not publish). */
  charges: z
    .array(z.object({ connectionId: z.string(), at: z.number(), credits: z.number() }))
    .max(1000)
    .default([]),
  /** The latest closed sessions, for the Library's list of what was open and what it cost. */
  closed: z.array(LiveSessionEntry).max(CLOSED_KEPT).default([]),
});
type OpenSessions = z.infer<typeof OpenSessions>;
export const liveSessionsSpec: RecordStoreSpec<OpenSessions> = {
  name: 'live-sessions',
  schema: OpenSessions as z.ZodType<OpenSessions>,
  defaults: { sessions: [], charges: [], closed: [] },
  version: 1,
};

/** 1216 the session does not exist, 1219 it is closed: either way nothing is left open. */
const GONE_CODES = new Set([1216, 1219]);

export interface LiveDeps {
  store: RecordStore<OpenSessions>;
  activeClient(): Promise<{ connectionId: string; client: ServiceClient }>;
  client(connectionId: string): Promise<ServiceClient>;
  log: Logger;
  now(): number;
  /** The studio (desktop or web host) or the command line, which keeps its sessions open between commands. */
  origin: LiveSession['origin'];
  /** ffprobe of a face's link: a session costs while open, so a face that is no picture is refused first. */
  probe(link: string): Promise<MediaInfo>;
  /** Refuses unless the confirmation covers a session at today's price and within the day's limit (the job engine's rule). */
  requireConfirmed?(confirmation: PaidConfirmation | undefined): Promise<unknown>;
  /** The connection's balance now, to record what opening a session cost. */
  balance?(connectionId: string): Promise<number | null>;
}

/** Options of a create: who agreed to pay, and whether a second session for the same faces is wanted. */
export interface LiveCreateOptions {
  /** Required: a create path without it does not compile (a script outside TypeScript is refused below). */
  confirmation: PaidConfirmation;
  another?: boolean;
}

const faceKey = (faces: readonly LiveFace[]): string =>
  faces
    .map((f) => `${f.path} ${f.opts}`)
    .sort()
    .join('\n');

/**
 * Live face swap sessions. A session costs while it is open, so every one is recorded on disk until it
 * is closed: the host closes them on quit, and the ones a crash left behind at the next start.
 *
 * Whoever opens the data folder holds its lock, so a studio session recorded by another run belongs to
 * a run that is gone: it is left over and closed. A command-line session is meant to outlive its command
 * (`live create`, then `live update`, `live close`): the next run adopts it instead, and a studio closes
 * it on quit like its own.
 */
export class LiveSessions {
  /** Channel tokens are kept in memory only: they are useless after the session and never written. */
  private readonly tokens = new Map<string, string>();
  /** The sessions a previous run left open, read once before this run records any. */
  private readonly leftOver: Set<string>;

  constructor(private readonly deps: LiveDeps) {
    this.leftOver = new Set(
      deps.store
        .get()
        .sessions.filter((s) => s.origin === 'studio')
        .map((s) => s.id),
    );
  }

  /** This run's open sessions, with the command line's it adopted. */
  list(): LiveSession[] {
    return this.deps.store.get().sessions.filter((s) => !this.leftOver.has(s.id));
  }

  /** Open sessions (this run's and any left over) then the closed ones kept, newest first: the Library's list. */
  history(): LiveSessionEntry[] {
    const { sessions, closed } = this.deps.store.get();
    const open = sessions.map((s) => entryOf(s, null)).sort((a, b) => b.createdAt - a.createdAt);
    return [...open, ...[...closed].sort((a, b) => b.createdAt - a.createdAt)];
  }

  /** What opening sessions cost on a connection, newest last. */
  charges(connectionId: string): PastCharge[] {
    return this.deps.store
      .get()
      .charges.filter((c) => c.connectionId === connectionId)
      .map((c) => ({ action: 'live-session', credits: c.credits, at: c.at }));
  }

  async create(faces: LiveFace[], options: LiveCreateOptions): Promise<LiveSession> {
    const { connectionId, client } = await this.deps.activeClient();
    // A session costs while open: a second one for the same faces is only opened when asked for by name.
    const same = this.list().find((s) => s.connectionId === connectionId && faceKey(s.faces) === faceKey(faces));
    if (same && options.another !== true) {
      throw new StudioError(
        `A session with these faces is already open (${same.id.slice(0, 8)}, opened ${new Date(same.createdAt).toLocaleTimeString()}). Use it or close it; open another only if you mean to pay for a second one.`,
        'session-open',
      );
    }
    if (!options.confirmation)
      throw new StudioError(
        'A live face swap session is paid (the service does not publish its price) and was not confirmed: the studio asks first, and a script passes --yes.',
        'confirmation-required',
      );
    await this.deps.requireConfirmed?.(options.confirmation);
    await this.checkFaces(faces);
    const before = (await this.deps.balance?.(connectionId).catch(() => null)) ?? null;
    const data = await client.call('liveCreate', { sourceImage: faces });
    const after = before === null ? null : ((await this.deps.balance?.(connectionId).catch(() => null)) ?? null);
    const charged =
      before !== null && after !== null && before >= after ? Math.round((before - after) * 100) / 100 : null;
    const now = this.deps.now();
    const session: LiveSession = {
      id: data._id,
      connectionId,
      createdAt: now,
      statusAt: now,
      chargedCredits: charged,
      faces,
      status: data.faceswap_status,
      channelId: data.channel_id,
      frontUserId: data.front_user_id,
      algorithmUserId: data.algorithm_user_id,
      appId: data.app_id ?? '',
      simulated: connectionId === SANDBOX_CONNECTION_ID,
      origin: this.deps.origin,
    };
    this.tokens.set(session.id, data.front_rtc_token);
    this.deps.store.update((r) => ({
      ...r,
      sessions: [...r.sessions, session],
      charges: charged === null ? r.charges : [...r.charges, { connectionId, at: now, credits: charged }].slice(-1000),
    }));
    return session;
  }

  async update(id: string, faces: LiveFace[]): Promise<LiveSession> {
    const session = this.open(id);
    await this.checkFaces(faces);
    await (await this.deps.client(session.connectionId)).call('liveUpdate', { _id: id, sourceImage: faces });
    const updated = { ...session, faces };
    this.deps.store.update((r) => ({ ...r, sessions: r.sessions.map((s) => (s.id === id ? updated : s)) }));
    return updated;
  }

  /**
   * Closes a session: one this data folder recorded is closed and forgotten; any other (opened by another
   * tool or computer) is closed on the active connection directly, which answers for an unknown or closed one.
   */
  async close(id: string): Promise<void> {
    const recorded = this.list().find((s) => s.id === id);
    if (recorded) return this.closeRecorded(recorded);
    const { client } = await this.deps.activeClient();
    await client.call('liveClose', { _id: id });
  }

  /** Each face must be a picture link (the service swaps in the face it sees there): a detected video's link is refused. */
  private async checkFaces(faces: LiveFace[]): Promise<void> {
    for (const face of faces) {
      const info = await this.deps.probe(face.path).catch(() => null);
      const refusal = mediaRefusal('live-face', readableMedia(info));
      if (refusal) throw new Error(`${refusal} (${face.path})`);
    }
  }

  /** The channel token of an open session of this run (for the real-time leg), or null. */
  channelToken(id: string): string | null {
    return this.tokens.get(this.open(id).id) ?? null;
  }

  /** What the page's real-time client joins with; refused for the sandbox (no media server) and for an adopted session (its token stayed with the command). */
  channel(id: string): LiveChannel {
    const session = this.open(id);
    if (session.simulated)
      throw new Error('The sandbox has no media server: this session is simulated, so there is no channel to join.');
    const token = this.tokens.get(id);
    if (!token)
      throw new Error(
        'This session was opened by studio live create; its channel token stayed with that command. Close it and create one here to see it.',
      );
    return {
      appId: session.appId,
      channelId: session.channelId,
      frontUserId: session.frontUserId,
      algorithmUserId: session.algorithmUserId,
      frontRtcToken: token,
    };
  }

  /** Closes what a previous run (killed, crashed) left open. One that cannot be reached now stays recorded for the next start. */
  async closeLeftOpen(): Promise<number> {
    let closed = 0;
    const recorded = this.deps.store.get().sessions.filter((s) => this.leftOver.has(s.id));
    for (const session of recorded) {
      try {
        await this.closeRecorded(session);
        this.leftOver.delete(session.id);
        closed += 1;
        this.deps.log.info('closed a live face swap session left open by an earlier run', { id: session.id });
      } catch (error) {
        this.deps.log.warn('a live face swap session left open could not be closed yet', {
          id: session.id,
          error: String(error),
        });
      }
    }
    return closed;
  }

  /** Closes every session of this run (quit, window closed); never throws. */
  async closeAll(): Promise<void> {
    await Promise.allSettled(this.list().map((s) => this.closeRecorded(s)));
  }

  private open(id: string): LiveSession {
    const session = this.list().find((s) => s.id === id);
    if (!session)
      throw new Error(
        `No open live session ${id} is recorded in this data folder: it was closed, or opened elsewhere.`,
      );
    return session;
  }

  private async closeRecorded(session: LiveSession): Promise<void> {
    try {
      await (await this.deps.client(session.connectionId)).call('liveClose', { _id: session.id });
    } catch (error) {
      if (!(error instanceof ServiceError && typeof error.code === 'number' && GONE_CODES.has(error.code))) throw error;
    }
    this.tokens.delete(session.id);
    const closedAt = this.deps.now();
    this.deps.store.update((r) => ({
      ...r,
      sessions: r.sessions.filter((s) => s.id !== session.id),
      closed: [...r.closed, entryOf(session, closedAt)].slice(-CLOSED_KEPT),
    }));
  }
}

function entryOf(session: LiveSession, closedAt: number | null): LiveSessionEntry {
  return {
    id: session.id,
    connectionId: session.connectionId,
    createdAt: session.createdAt,
    closedAt,
    chargedCredits: session.chargedCredits ?? null,
    faceCount: session.faces.length,
    status: session.status,
    statusAt: session.statusAt ?? session.createdAt,
  };
}
