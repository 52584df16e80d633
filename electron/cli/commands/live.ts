import type { DetectRequest, DetectResult, LiveFace, LiveSession } from '../../common/bridge/faces';
import type { PaidConfirmation } from '../../common/bridge/jobs';
import { reachOwnerHost, type CommandEngine } from '../owner-host';
import { createLiveSessions } from '../../services/faces/faces-domain';
import type { LiveSessions } from '../../services/faces/live-sessions';
import { createMediaToolkit, type MediaToolkit } from '../../services/media/toolkit';
import { openCliHost } from '../cli-host';
import type { CliHost } from '../cli-host-types';
import { EXIT, UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { FACE_OPTION, JSON_OPTION } from '../common-options';
import { facesService } from './faces';
import { confirmPaidCli } from './paid-confirm';

/** The data folder's live sessions as the command line sees them: its own adopted, a killed studio's closed. */
async function liveSessions(host: CliHost, toolkit: MediaToolkit): Promise<LiveSessions> {
  // Built as the studio builds its own, so an open is held to the day's spending limit here too.
  const live = createLiveSessions({
    createStore: host.createStore,
    log: host.log,
    connections: host.target,
    engine: host.engine,
    origin: 'cli',
    probe: (link) => toolkit.prober.probe(link),
  });
  await live.closeLeftOpen();
  return live;
}

/** `--face URL URL…` or `--face URL --face URL`: the parser requires at least one. */
function faceLinks(args: ParsedArgs): string[] {
  const given = args.flags['--face'];
  const links = Array.isArray(given) ? given : typeof given === 'string' ? [given] : [];
  if (links.length === 0) throw new UsageError('give at least one face: --face URL');
  const bad = links.find((u) => !/^https?:\/\/[^\s/]+/i.test(u));
  if (bad) throw new UsageError(`"${bad}" is not an http(s) link; the service downloads each face`);
  return links;
}

/** Each face detected first, so its opts are the landmarks the service found, never typed. */
async function detectedFaces(
  detect: (request: DetectRequest) => Promise<DetectResult>,
  links: string[],
): Promise<LiveFace[]> {
  const found: LiveFace[] = [];
  for (const path of links) {
    const result = await detect({ source: path, singleFace: true }).catch((error: unknown) => {
      throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    });
    const opts = Object.values(result.faces_obj ?? {})[0]?.landmarks_str[0];
    if (!opts)
      throw new Error(
        `${path}: no face found. Faces are found from 80×80 pixels, turned no more than about 45° from the camera.`,
      );
    found.push({ path, opts });
  }
  return found;
}

function report(io: CliIo, args: ParsedArgs, session: LiveSession): void {
  if (args.flags['--json']) {
    io.out(JSON.stringify(session, null, 2));
    return;
  }
  io.out(`session ${session.id}: ${session.faces.length} face(s)`);
  io.out(
    `  channel ${session.channelId}, your user id ${session.frontUserId}, processed stream from user ${session.algorithmUserId}, app id ${session.appId || 'none given'}`,
  );
  if (session.simulated) io.out('  The sandbox simulates the session: no media server processes a camera.');
  io.out(`  It stays open (and costs) until: studio live close ${session.id}`);
}

/** What a live command does: here, with the data folder's own records, or through the studio that has it open. */
interface LiveSide {
  detect(request: DetectRequest): Promise<DetectResult>;
  create(faces: LiveFace[], options: { confirmation: PaidConfirmation; another: boolean }): Promise<LiveSession>;
  update(id: string, faces: LiveFace[]): Promise<LiveSession>;
  close(id: string): Promise<void>;
  engine: Pick<CommandEngine, 'quote'>;
}

/**
 * Runs a live command where it belongs. Beside a studio that has the data folder open, that studio
 * detects, opens, changes and closes with its own services, so the session is in its Library's list at
 * once; a session it did not record is closed on the connection directly, as without it.
 */
async function withSessions<T>(args: ParsedArgs, io: CliIo, work: (side: LiveSide) => Promise<T>): Promise<T> {
  const owner = await reachOwnerHost(args, io);
  if (owner) {
    try {
      if (args.flags['--json'] !== true)
        io.err(`Running through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}).`);
      const call = owner.owner.call;
      return await work({
        detect: (request) => call('faces.detect', request),
        create: (faces, options) => call('live.create', faces, options),
        update: (id, faces) => call('live.update', id, faces),
        async close(id) {
          if ((await call('live.sessions')).some((s) => s.id === id)) return call('live.close', id);
          return closeOnConnection(args, io, id);
        },
        engine: owner.engine,
      });
    } finally {
      owner.close();
    }
  }
  const host = openCliHost(args, io, 'writes');
  const toolkit = createMediaToolkit({ dataDir: host.dataDir, settings: () => host.settings.get() });
  try {
    const live = await liveSessions(host, toolkit);
    const faces = facesService(host);
    return await work({
      detect: (request) => faces.detect(request),
      create: (chosen, options) => live.create(chosen, options),
      update: (id, chosen) => live.update(id, chosen),
      // A session this data folder recorded is closed and forgotten; any other (opened by another tool or
      // computer) is closed on the connection directly, which answers for an unknown or closed one.
      close: (id) => (live.list().some((s) => s.id === id) ? live.close(id) : closeWith(host, id)),
      engine: host.engine,
    });
  } finally {
    await toolkit.dispose();
    await host.close();
  }
}

async function closeWith(host: Pick<CliHost, 'target'>, id: string): Promise<void> {
  const { id: connectionId } = await host.target.active();
  await (await host.target.client(connectionId)).call('liveClose', { _id: id });
}

/** A session the owner did not record, closed on the connection by this process (read-only beside the owner). */
async function closeOnConnection(args: ParsedArgs, io: CliIo, id: string): Promise<void> {
  const host = openCliHost(args, io, 'reads');
  try {
    await closeWith(host, id);
  } finally {
    await host.close();
  }
}

export const liveCreateCommand: CliCommand = {
  name: 'live create',
  paid: true,
  summary: 'open a live face swap session from face pictures (each detected first; its landmarks become opts)',
  options: [
    FACE_OPTION,
    { name: '--another', help: 'open a second session for faces that already have one open (paid on its own)' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const links = faceLinks(args);
    return withSessions(args, io, async (live) => {
      const faces = await detectedFaces(live.detect, links);
      const confirmation = await confirmPaidCli(args, io, live.engine, { action: 'live-session' });
      report(io, args, await live.create(faces, { confirmation, another: args.flags['--another'] === true }));
      return EXIT.ok;
    });
  },
};

export const liveUpdateCommand: CliCommand = {
  name: 'live update',
  summary: 'change the faces of an open live session (each detected first)',
  arguments: [{ name: 'ID', help: 'the session id', required: true }],
  options: [FACE_OPTION, JSON_OPTION],
  async run(args, io) {
    const [id] = args.positional;
    if (!id) throw new UsageError('give the session id');
    const links = faceLinks(args);
    return withSessions(args, io, async (live) => {
      report(io, args, await live.update(id, await detectedFaces(live.detect, links)));
      return EXIT.ok;
    });
  },
};

export const liveCloseCommand: CliCommand = {
  name: 'live close',
  summary: 'close a live face swap session: one this data folder opened, or any the connection can close',
  arguments: [{ name: 'ID', help: 'the session id', required: true }],
  options: [JSON_OPTION],
  async run(args, io) {
    const [id] = args.positional;
    return withSessions(args, io, async (live) => {
      await live.close(id);
      io.out(args.flags['--json'] ? JSON.stringify({ closed: id }) : `session ${id} closed`);
      return EXIT.ok;
    });
  },
};

export const liveCommands = [liveCreateCommand, liveUpdateCommand, liveCloseCommand];
