import { resolve } from 'node:path';
import {
  CHARACTER_SWAP_LIMITS,
  CHARACTER_SWAP_MODES,
  CHARACTER_SWAP_RESOLUTIONS,
} from '../../common/api/character-swap';
import { isServiceError } from '../../services/client/errors';
import { CharacterSwapService } from '../../services/tools/character-swap-service';
import { LipSyncService } from '../../services/tools/lipsync-service';
import { ToolRefusal } from '../../services/tools/tool-deps';
import { openCliHost } from '../cli-host';
import { reachOwnerHost, type CommandEngine } from '../owner-host';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { AGAIN_OPTION, JSON_OPTION, OUT_OPTION } from '../common-options';
import { ask } from '../ask';
import { cliToolDeps, describeMedia, followToolJob, reportChecks } from './tool-job';
import { confirmPaidCli } from './paid-confirm';

function required(args: ParsedArgs, name: string, what: string): string {
  const value = flag(args, name);
  if (!value) throw new UsageError(`Give the ${what} with ${name} URL (an http(s) link or a local file)`);
  return value;
}

/** Opens the CLI host and the tools' deps, runs `work`, and closes both; a refusal before sending exits 1 with its reasons. */
async function withTools(
  args: ParsedArgs,
  io: CliIo,
  work: (tools: ReturnType<typeof cliToolDeps> & { host: ReturnType<typeof openCliHost> }) => Promise<number>,
): Promise<number> {
  const host = openCliHost(args, io, 'writes', { serveOthers: true });
  const tools = cliToolDeps(host, io);
  try {
    host.engine.start();
    return await work({ ...tools, host });
  } catch (error) {
    if (error instanceof ToolRefusal) {
      io.err(error.message);
      return EXIT.refused;
    }
    if (isServiceError(error) && error.kind === 'invalid') throw new UsageError(`Not sent: ${error.message}`);
    throw error;
  } finally {
    await tools.toolkit.dispose();
    await host.engine.flush();
    await host.close();
  }
}

const outOf = (args: ParsedArgs, io: CliIo): string | undefined => {
  const out = flag(args, '--out');
  return out === undefined ? undefined : resolve(io.cwd, out);
};

/** Where a tool command's work is done: this process's own services, or those of the folder's owner. */
interface ToolSide {
  engine: Pick<CommandEngine, 'quote' | 'subscribe' | 'get' | 'waitFor'>;
  lipsync: Pick<LipSyncService, 'measure' | 'send'>;
  swap: Pick<CharacterSwapService, 'quote' | 'send'>;
}

/**
 * Runs a tool command where it belongs. With a studio (or another run) that has the data folder open,
 * that owner measures, checks and sends with its own services, so the job is in its Library at once;
 * this process asks the price question and follows the job. A local file is handed to the owner first
 * (checked and taken in as its page takes a chosen file) and named by the reference it answers; the
 * owner uploads it to its storage when the job is sent. Without an owner, this process opens the folder
 * itself and makes sure the built-in sandbox serving any of the links is up.
 */
async function onToolSide(
  args: ParsedArgs,
  io: CliIo,
  media: Record<string, string>,
  work: (side: ToolSide) => Promise<number>,
): Promise<number> {
  const owner = await reachOwnerHost(args, io);
  if (!owner) {
    return withTools(args, io, async ({ deps, host }) => {
      // A link from `studio avatars list` or an earlier job opens only while the sandbox runs.
      await host.sandboxServing(Object.values(media));
      return work({ engine: host.engine, lipsync: new LipSyncService(deps), swap: new CharacterSwapService(deps) });
    });
  }
  try {
    if (args.flags['--json'] !== true)
      io.err(`Running through the ${owner.owner.kind} that has the data folder open (process ${owner.owner.pid}).`);
    const references = new Map<string, string>();
    for (const [name, value] of Object.entries(media)) references.set(value, await owner.media(value, name));
    // The inputs as the owner knows them: each local file by the reference it answered.
    const named = <T extends object>(inputs: T): T =>
      Object.fromEntries(
        Object.entries(inputs).map(([k, v]) => [k, typeof v === 'string' ? (references.get(v) ?? v) : v]),
      ) as T;
    const call = owner.owner.call;
    return await work({
      engine: owner.engine,
      lipsync: {
        measure: (inputs) => call('tools.lipsyncMeasure', named(inputs)),
        send: (request) => call('tools.lipsyncSend', named(request)),
      },
      swap: {
        quote: (inputs) => call('tools.swapQuote', named(inputs)),
        send: (request) => call('tools.swapSend', named(request)),
      },
    });
  } finally {
    owner.close();
  }
}

/** `studio lipsync --video URL --audio URL [--out FILE] [--json] [--again]`. */
export const lipsyncCommand: CliCommand = {
  name: 'lipsync',
  paid: true,
  summary:
    'lip syncs a video (≤ 60 s, 300 MB, 60 fps, checked first) to an audio; waits, prints the link, saves it with --out',
  options: [
    { name: '--video', value: 'URL', help: 'the video (an http(s) link or a local file)', required: true },
    { name: '--audio', value: 'URL', help: 'the audio (an http(s) link or a local file)', required: true },
    OUT_OPTION,
    JSON_OPTION,
    AGAIN_OPTION,
  ],
  async run(args, io) {
    const inputs = { video: required(args, '--video', 'video'), audio: required(args, '--audio', 'audio') };
    const json = args.flags['--json'] === true;
    return onToolSide(args, io, { '--video': inputs.video, '--audio': inputs.audio }, async ({ engine, lipsync }) => {
      const measured = await lipsync.measure(inputs);
      if (!json) {
        io.err(`video: ${describeMedia(measured.video)}`);
        io.err(`audio: ${describeMedia(measured.audio)}`);
      }
      if (reportChecks(measured.checks, io)) return EXIT.refused;
      const confirmation = await confirmPaidCli(args, io, engine, { action: 'lipsync' });
      const sent = await lipsync.send({ ...inputs, confirmation, confirmDuplicate: args.flags['--again'] === true });
      return followToolJob({ engine }, 'lipsync', sent, io, {
        json,
        out: outOf(args, io),
        tty: Boolean(process.stderr.isTTY),
      });
    });
  },
};

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  const { minSeconds, maxSeconds } = CHARACTER_SWAP_LIMITS;
  if (!Number.isFinite(seconds) || seconds < minSeconds || seconds > maxSeconds)
    throw new UsageError(`--duration must be ${minSeconds} to ${maxSeconds} seconds, not "${text}"`);
  return seconds;
}

/** `studio character-swap --image URL --video URL [--mode] [--resolution] [--duration S] [--prompt TEXT] [--model VALUE] [--yes] [--out FILE]`. */
export const characterSwapCommand: CliCommand = {
  name: 'character-swap',
  summary:
    'puts a character (PNG/JPEG) into a video (MP4): prints the cost per started 5 s and asks (unless --yes); saves it with --out',
  paid: true,
  options: [
    { name: '--image', value: 'URL', help: 'the character, PNG or JPEG (a link or a local file)', required: true },
    { name: '--video', value: 'URL', help: 'the source video, MP4 (a link or a local file)', required: true },
    { name: '--mode', value: 'MODE', choices: CHARACTER_SWAP_MODES, help: 'animate (default) or replace the faces' },
    {
      name: '--resolution',
      value: 'RES',
      choices: CHARACTER_SWAP_RESOLUTIONS,
      help: "the result's resolution (default 720p)",
    },
    {
      name: '--duration',
      value: 'S',
      help: 'seconds of video to use',
      range: { min: CHARACTER_SWAP_LIMITS.minSeconds, max: CHARACTER_SWAP_LIMITS.maxSeconds },
    },
    {
      name: '--prompt',
      value: 'TEXT',
      help: `what to keep or change (up to ${CHARACTER_SWAP_LIMITS.maxPrompt} characters)`,
    },
    { name: '--model', value: 'VALUE', help: "a model from `studio models` (default: the service's)" },
    OUT_OPTION,
    JSON_OPTION,
    AGAIN_OPTION,
  ],
  async run(args, io) {
    const mode = flag(args, '--mode');
    if (mode !== undefined && !(CHARACTER_SWAP_MODES as readonly string[]).includes(mode))
      throw new UsageError(`--mode must be animate or replace, not "${mode}"`);
    const prompt = flag(args, '--prompt');
    if (prompt !== undefined && prompt.length > CHARACTER_SWAP_LIMITS.maxPrompt)
      throw new UsageError(
        `--prompt must be at most ${CHARACTER_SWAP_LIMITS.maxPrompt} characters (it has ${prompt.length})`,
      );
    const inputs = {
      image: required(args, '--image', 'character image'),
      video: required(args, '--video', 'source video'),
      duration: parseDuration(flag(args, '--duration')),
      resolution: flag(args, '--resolution'),
      model: flag(args, '--model'),
    };
    const json = args.flags['--json'] === true;
    return onToolSide(args, io, { '--image': inputs.image, '--video': inputs.video }, async ({ engine, swap }) => {
      const quote = await swap.quote(inputs);
      if (!json) {
        io.err(`image: ${describeMedia(quote.image)}`);
        io.err(`video: ${describeMedia(quote.video)}`);
        io.err(
          `model: ${quote.models.find((m) => m.value === quote.model)?.label ?? quote.model} · ${quote.resolution} · ${quote.unitCredit} credits per started 5 s · ${quote.seconds ?? '?'} s${quote.detected ? " (the video's length)" : ''}`,
        );
      }
      if (reportChecks(quote.checks, io) || quote.credits === null) return EXIT.refused;
      io.err(`Cost: ${quote.credits} credits (${quote.basis}).`);
      if (args.flags['--yes'] !== true && !(await ask(io, `Send it for ${quote.credits} credits? [y/N]`))) {
        io.err('Not sent.');
        return EXIT.refused;
      }
      const sent = await swap.send({
        ...inputs,
        ...(mode !== undefined && { mode: mode as (typeof CHARACTER_SWAP_MODES)[number] }),
        ...(prompt !== undefined && { prompt }),
        confirmedCredits: quote.credits,
        confirmDuplicate: args.flags['--again'] === true,
      });
      return followToolJob({ engine }, 'character-swap', sent, io, {
        json,
        out: outOf(args, io),
        tty: Boolean(process.stderr.isTTY),
      });
    });
  },
};
