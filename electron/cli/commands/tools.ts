import { resolve } from 'node:path';
import {
  CHARACTER_SWAP_LIMITS,
  CHARACTER_SWAP_MODES,
  CHARACTER_SWAP_RESOLUTIONS,
} from '../../common/api/character-swap';
import { OwnerCallError } from '../../services/host/owner-client';
import { sayWhere, withStudio } from '../cli-host';
import { mediaNamer, type StudioLink } from '../studio-link';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { AGAIN_OPTION, JSON_OPTION, OUT_OPTION } from '../common-options';
import { ask } from '../ask';
import { describeMedia, followToolJob, reportChecks } from './tool-job';
import { confirmPaidCli } from './paid-confirm';

function required(args: ParsedArgs, name: string, what: string): string {
  const value = flag(args, name);
  if (!value) throw new UsageError(`Give the ${what} with ${name} URL (an http(s) link or a local file)`);
  return value;
}

const outOf = (args: ParsedArgs, io: CliIo): string | undefined => {
  const out = flag(args, '--out');
  return out === undefined ? undefined : resolve(io.cwd, out);
};

/**
 * Runs a tool command through the studio's tools (this run's own, or those of the studio that has the
 * data folder open, so the job is in its Library at once): it measures, checks and sends; this process
 * asks the price question and follows the job. A local file is named to the studio first (checked and
 * taken in as its page takes a chosen file) and passed by the reference it answers; the studio uploads
 * it to its storage when the job is sent. `inputs` are the tool's inputs with each medium so named.
 */
async function onTools<T extends Record<string, unknown>>(
  args: ParsedArgs,
  io: CliIo,
  given: T,
  media: Record<string, keyof T>,
  work: (studio: StudioLink, inputs: T) => Promise<number>,
): Promise<number> {
  return withStudio(args, io, 'writes', async (studio) => {
    sayWhere(studio, args, io);
    const name = mediaNamer(studio, io.cwd);
    const inputs = { ...given };
    for (const [flagName, key] of Object.entries(media))
      inputs[key] = (await name(given[key] as string, flagName)) as T[keyof T];
    try {
      return await work(studio, inputs);
    } catch (error) {
      // The service's rules refused the request before it was sent: the command line's mistake.
      // (The tools' own refusals, code refused-before-sending, exit 3 as every refusal does.)
      if (error instanceof OwnerCallError && error.code === 'invalid')
        throw new UsageError(`Not sent: ${error.message}`);
      throw error;
    }
  });
}

/** `studio lipsync --video URL --audio URL [--out FILE] [--json] [--again]`. */
export const lipsyncCommand: CliCommand = {
  name: 'lipsync',
  makes: ['lipsync'],
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
    const given = { video: required(args, '--video', 'video'), audio: required(args, '--audio', 'audio') };
    const json = args.flags['--json'] === true;
    return onTools(args, io, given, { '--video': 'video', '--audio': 'audio' }, async (studio, inputs) => {
      const measured = await studio.call('tools.lipsyncMeasure', inputs);
      if (!json) {
        io.err(`video: ${describeMedia(measured.video)}`);
        io.err(`audio: ${describeMedia(measured.audio)}`);
      }
      if (reportChecks(measured.checks, io)) return EXIT.refused;
      const confirmation = await confirmPaidCli(args, io, studio, { action: 'lipsync' });
      const sent = await studio.call('tools.lipsyncSend', {
        ...inputs,
        confirmation,
        confirmDuplicate: args.flags['--again'] === true,
      });
      return followToolJob(studio, 'lipsync', sent, io, {
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
  makes: ['character-swap'],
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
    const given = {
      image: required(args, '--image', 'character image'),
      video: required(args, '--video', 'source video'),
      duration: parseDuration(flag(args, '--duration')),
      resolution: flag(args, '--resolution'),
      model: flag(args, '--model'),
    };
    const json = args.flags['--json'] === true;
    return onTools(args, io, given, { '--image': 'image', '--video': 'video' }, async (studio, inputs) => {
      const quote = await studio.call('tools.swapQuote', inputs);
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
      const sent = await studio.call('tools.swapSend', {
        ...inputs,
        ...(mode !== undefined && { mode: mode as (typeof CHARACTER_SWAP_MODES)[number] }),
        ...(prompt !== undefined && { prompt }),
        confirmedCredits: quote.credits,
        confirmDuplicate: args.flags['--again'] === true,
      });
      return followToolJob(studio, 'character-swap', sent, io, {
        json,
        out: outOf(args, io),
        tty: Boolean(process.stderr.isTTY),
      });
    });
  },
};
