import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DEFAULT_AVATAR_PAGE_SIZE, type AvatarRecord } from '../../common/api';
import { AvatarUploadCheck } from '../../common/bridge/avatars';
import { z } from 'zod';
import type { AvatarQuery } from '../../common/bridge/catalogue';
import { formatAvatarDetail, formatAvatarRows, suggestUrlFrom } from '../../common/catalogue/avatar-facts';
import { OwnerCallError } from '../../services/host/owner-client';
import { connectionName, sayWhere, withStudio } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { localFileOf, mediaNamer, type StudioLink } from '../studio-link';
import type { SubmitResult } from '../../common/bridge/jobs';
import { AGAIN_OPTION, JSON_OPTION } from '../common-options';
import { followToolJob } from './tool-job';
import { confirmPaidCli } from './paid-confirm';

function choice<T extends number>(
  args: ParsedArgs,
  name: string,
  allowed: readonly T[],
  meaning: string,
): T | undefined {
  const value = flag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(allowed as readonly number[]).includes(n)) throw new UsageError(`${name} must be ${meaning}, not "${value}"`);
  return n as T;
}

/** Every page of the list (the interface gives no total: a page shorter than its size is the last). */
async function allPages(studio: StudioLink, query: AvatarQuery): Promise<AvatarRecord[]> {
  const found: AvatarRecord[] = [];
  for (let page = 1; page <= 100; page += 1) {
    const result = await studio.call('avatars.list', { ...query, page, size: DEFAULT_AVATAR_PAGE_SIZE });
    found.push(...result.items);
    if (!result.hasMore) break;
  }
  return found;
}

/** `studio avatars list [--from 2|3] [--type 1|2] [--json]`. */
export const avatarsListCommand: CliCommand = {
  name: 'avatars list',
  summary: 'List the avatars: official (2) and uploaded (3), talking (1) and streaming (2), with their state',
  options: [
    { name: '--from', value: 'FROM', choices: ['2', '3'], help: '2 official, 3 uploaded (default: both)' },
    { name: '--type', value: 'TYPE', choices: ['1', '2'], help: '1 talking, 2 streaming (default: both)' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const from = choice(args, '--from', [2, 3] as const, '2 (official) or 3 (uploaded)');
    const type = choice(args, '--type', [1, 2] as const, '1 (talking) or 2 (streaming)');
    return withStudio(args, io, 'reads', async (studio) => {
      const list = await allPages(studio, { ...(from && { from }), ...(type && { type }) });
      if (args.flags['--json']) {
        io.out(JSON.stringify(list, null, 2));
      } else {
        const connection = await connectionName(studio, args);
        for (const row of formatAvatarRows(list)) io.out(row);
        io.err(`${list.length} avatars on ${connection} (avatar_id, name, from, type, state, record id)`);
      }
      return EXIT.ok;
    });
  },
};

/** `studio avatars show ID [--json]`: by record id or avatar_id. */
export const avatarsShowCommand: CliCommand = {
  name: 'avatars show',
  summary: "one avatar's record (ID: its avatar_id or record id): state, type, links",
  arguments: [{ name: 'ID', help: 'an avatar_id or record id', required: true }],
  options: [JSON_OPTION],
  async run(args, io) {
    const [id] = args.positional;
    if (!id) throw new UsageError('Give the avatar: its avatar_id or record id (`studio avatars list` shows both)');
    return withStudio(args, io, 'reads', async (studio) => {
      try {
        const avatar = await studio.call('avatars.detail', id);
        io.out(args.flags['--json'] ? JSON.stringify(avatar, null, 2) : formatAvatarDetail(avatar));
        return EXIT.ok;
      } catch (error) {
        if (error instanceof OwnerCallError && error.code === 'not-found') {
          io.err(error.message);
          return EXIT.failed;
        }
        throw error;
      }
    });
  },
};

/** A link as it is; anything else is a local file, which must exist. */
function sourceOf(value: string, cwd: string): string {
  const path = localFileOf(value, cwd);
  if (path === null) return value;
  if (!existsSync(path)) throw new UsageError(`${value} is neither an http(s) link nor a file on this computer`);
  return pathToFileURL(path).href;
}

/** `studio avatars upload URL --id ID --name NAME [--type 1|2] [--url-from 1|2] [--wait] [--json] [--again]`. */
export const avatarsUploadCommand: CliCommand = {
  name: 'avatars upload',
  makes: ['avatar-upload'],
  summary: 'uploads an avatar (a local file goes to your storage first); --wait follows it until ready or failed',
  arguments: [
    {
      name: 'URL|FILE',
      help: 'a picture or video: a link, or a local file (uploaded to your storage first)',
      required: true,
    },
  ],
  options: [
    { name: '--id', value: 'ID', help: 'the avatar_id to give it', required: true },
    { name: '--name', value: 'NAME', help: 'its name', required: true },
    { name: '--type', value: 'TYPE', choices: ['1', '2'], help: '1 talking (default), 2 streaming' },
    {
      name: '--url-from',
      value: 'FROM',
      choices: ['1', '2'],
      help: '1 your own link, 2 a video site or cloud drive (default: guessed from the link)',
    },
    { name: '--wait', help: 'follow it until ready or failed' },
    AGAIN_OPTION,
    JSON_OPTION,
  ],
  async run(args, io) {
    const [given] = args.positional;
    if (!given) throw new UsageError('Give the avatar video (or picture): an http(s) link or a local file');
    const source = sourceOf(given, io.cwd);
    const checked = AvatarUploadCheck.extend({ confirmDuplicate: z.boolean() }).safeParse({
      source,
      avatarId: flag(args, '--id') ?? '',
      name: flag(args, '--name') ?? '',
      type: choice(args, '--type', [1, 2] as const, '1 (talking) or 2 (streaming)') ?? 1,
      urlFrom:
        choice(args, '--url-from', [1, 2] as const, '1 (own link) or 2 (video site or cloud drive)') ??
        suggestUrlFrom(source),
      confirmDuplicate: args.flags['--again'] === true,
    });
    if (!checked.success)
      throw new UsageError(
        `Not sent: ${[...new Set(checked.error.issues.map((i) => (i.path[0] === 'avatarId' ? `--id: ${i.message}` : i.path[0] === 'name' ? `--name: ${i.message}` : i.message)))].join('; ')}`,
      );
    // The studio checks, uploads and sends it; one that has the data folder open shows it in its Library at once.
    return withStudio(args, io, 'writes', async (studio) => {
      sayWhere(studio, args, io);
      // A local file is looked at before it goes up: one the service would not take is refused here.
      const request = { ...checked.data, source: await mediaNamer(studio, io.cwd)(given, 'FILE') };
      const sent = await refusedAsUsage(async () => {
        // Checked before the price question, so a "y" is not refused for a taken id or a file the service would not take.
        await studio.call('avatars.checkUpload', request);
        const confirmation = await confirmPaidCli(args, io, studio, { action: 'avatar-upload' });
        return studio.call('avatars.upload', { ...request, confirmation });
      });
      return reportUpload(args, io, studio, sent);
    });
  },
};

/** A check the host refused (a taken id, a file the service would not take) is the command line's mistake: nothing was sent. */
async function refusedAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OwnerCallError && (error.code === 'refused' || error.code === 'invalid'))
      throw new UsageError(`Not sent: ${error.message}`);
    throw error;
  }
}

/** Prints what was sent (or follows it with --wait). */
async function reportUpload(args: ParsedArgs, io: CliIo, studio: StudioLink, sent: SubmitResult): Promise<number> {
  const json = args.flags['--json'] === true;
  if (args.flags['--wait'])
    return followToolJob(studio, null, sent, io, { json, tty: Boolean(process.stderr.isTTY) && !json });
  if (sent.status === 'duplicate') {
    io.err(`${sent.message.replace(/ Send it anyway\?$/, '')} Add --again to send it anyway.`);
    return EXIT.failed;
  }
  io.out(json ? JSON.stringify(sent.job, null, 2) : sent.job.id);
  if (!json)
    io.err(
      `Sent to ${sent.job.connectionName}; \`studio jobs wait ${sent.job.id.slice(0, 8)}\` follows it until it is ready.`,
    );
  return EXIT.ok;
}

export const avatarsCommands: readonly CliCommand[] = [avatarsListCommand, avatarsShowCommand, avatarsUploadCommand];
