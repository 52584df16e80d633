import type { DetectRequest, DetectResult, LiveFace, LiveSession } from '../../common/bridge/faces';
import { sayWhere, withStudio } from '../cli-host';
import type { StudioLink } from '../studio-link';
import { EXIT, UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { FACE_OPTION, JSON_OPTION } from '../common-options';
import { confirmPaidCli } from './paid-confirm';

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

/**
 * Runs a live command through the studio's sessions: the studio that has the data folder open (the
 * session is then in its Library's list at once), or this run's own, built as the studio builds its
 * own, so an open is held to the day's spending limit here too. A session the folder did not record is
 * closed on the connection directly.
 */
function withSessions<T>(args: ParsedArgs, io: CliIo, work: (studio: StudioLink) => Promise<T>): Promise<T> {
  return withStudio(args, io, 'writes', async (studio) => {
    sayWhere(studio, args, io);
    return work(studio);
  });
}

const detectThrough =
  (studio: StudioLink) =>
  (request: DetectRequest): Promise<DetectResult> =>
    studio.call('faces.detect', request);

export const liveCreateCommand: CliCommand = {
  name: 'live create',
  makes: ['live-session'],
  summary: 'open a live face swap session from face pictures (each detected first; its landmarks become opts)',
  options: [
    FACE_OPTION,
    { name: '--another', help: 'open a second session for faces that already have one open (paid on its own)' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const links = faceLinks(args);
    return withSessions(args, io, async (studio) => {
      const faces = await detectedFaces(detectThrough(studio), links);
      const confirmation = await confirmPaidCli(args, io, studio, { action: 'live-session' });
      const another = args.flags['--another'] === true;
      report(io, args, await studio.call('live.create', faces, { confirmation, another }));
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
    return withSessions(args, io, async (studio) => {
      report(io, args, await studio.call('live.update', id, await detectedFaces(detectThrough(studio), links)));
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
    return withSessions(args, io, async (studio) => {
      await studio.call('live.close', id);
      io.out(args.flags['--json'] ? JSON.stringify({ closed: id }) : `session ${id} closed`);
      return EXIT.ok;
    });
  },
};

export const liveCommands = [liveCreateCommand, liveUpdateCommand, liveCloseCommand];
