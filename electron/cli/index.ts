import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { EXIT, RefusedError, UsageError, type CliCommand, type CliIo, type ExitName } from './command';
import { isServiceError } from '../services/client/errors';
import { DataFolderBusyError } from '../services/host/data-folder-lock';
import { DataFolderUnusableError } from '../services/host/data-folder-state';
import { StudioError } from '../services/host/errors';
import { OwnerCallError, OwnerRefusedError } from '../services/host/owner-client';
import { QueueUnavailableError } from '../services/rows/queue/queue-check';
import { exitWhenDone } from './exit-when-done';
import { GLOBAL_OPTIONS, ParseStop, parseCommandLine, usageLine } from './parser';
import { jobsCommands } from './commands/jobs';
import { exportBodyCommand } from './commands/export-body';
import { renderPreviewCommand } from './commands/render-preview';
import { uploadCommand } from './commands/upload';
import { downloadCommand } from './commands/download';
import { voicesListCommand } from './commands/voices';
import { cloneCommand, ttsCommand } from './commands/speech';
import { ttsBatchCommand } from './commands/tts-batch';
import { modelsCommand } from './commands/models';
import { avatarsCommands } from './commands/avatars';
import { facesAnalyzeCommand, facesDetectCommand } from './commands/faces';
import { liveCommands } from './commands/live';
import { webhookDecodeCommand } from './commands/webhook';
import { checkPlacementCommand } from './commands/check-placement';
import { characterSwapCommand, lipsyncCommand } from './commands/tools';
import { campaignCommands } from './commands/campaign';
import { workerCommand } from './commands/worker';
import { templatesCommands } from './commands/templates';
import { captionsBurnCommand } from './commands/captions';

/** Every `studio` command. Other areas add theirs with one line each. */
export const commands: readonly CliCommand[] = [
  ...jobsCommands,
  workerCommand,
  exportBodyCommand,
  renderPreviewCommand,
  captionsBurnCommand,
  uploadCommand,
  downloadCommand,
  voicesListCommand,
  ttsCommand,
  ttsBatchCommand,
  cloneCommand,
  modelsCommand,
  ...avatarsCommands,
  webhookDecodeCommand,
  checkPlacementCommand,
  facesDetectCommand,
  facesAnalyzeCommand,
  lipsyncCommand,
  characterSwapCommand,
  ...liveCommands,
  ...campaignCommands,
  ...templatesCommands,
];

/** The help's width: a terminal's 80 columns read best; no column is padded out to the longest usage. */
export const HELP_COLUMNS = 80;

/** Words of `text` in lines of at most HELP_COLUMNS (a single longer word keeps its own line). */
function wrap(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const blank = line === first || line === rest;
    if (!blank && line.length + 1 + word.length > HELP_COLUMNS) {
      lines.push(line);
      line = rest + word;
    } else line += (blank ? '' : ' ') + word;
  }
  lines.push(line);
  return lines;
}

/** The options every command accepts, as the help and docs/cli.md show them. */
export const GLOBAL_FLAGS: readonly (readonly [flag: string, help: string])[] = GLOBAL_OPTIONS.map(
  (o) => [o.value ? `${o.name} ${o.value}` : o.name, o.help] as const,
);

export function usage(): string {
  return [
    'Usage: studio <command> [flags]   (in the repo: npm run cli -- <command>)',
    'studio <command> --help shows one command with every flag.',
    '',
    ...commands.flatMap((c) => [...wrap(usageLine(c), '  ', '    '), ...wrap(c.summary, '        ', '        ')]),
    '',
    'Every command accepts:',
    ...GLOBAL_FLAGS.flatMap(([flag, text]) => wrap(text, `  ${flag.padEnd(18)}  `, ' '.repeat(22))),
  ].join('\n');
}

/**
 * The caller's folder: under `npm run cli` the process runs in the repository, and npm records where it
 * was called from in INIT_CWD; run directly (`studio`), the process's own folder.
 */
export function callerFolder(env: Record<string, string | undefined>, cwd: string): string {
  return env.npm_lifecycle_event && env.INIT_CWD ? env.INIT_CWD : cwd;
}

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  drained: async () => {
    if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
  },
  env: process.env,
  cwd: callerFolder(process.env, process.cwd()),
});

const EXIT_NAMES = Object.fromEntries(Object.entries(EXIT).map(([name, code]) => [code, name])) as Record<
  number,
  ExitName
>;

/**
 * With --json, stdout carries JSON whatever happens: a command that fails without printing its own
 * JSON answer gets `{ "error": { "code", "message" } }`, the message being what it said on stderr.
 */
function jsonFailures(io: CliIo): { io: CliIo; finish(code: number, message?: string): number } {
  let printed = false;
  const said: string[] = [];
  return {
    io: {
      ...io,
      out: (text) => {
        printed = true;
        io.out(text);
      },
      err: (text) => {
        said.push(text);
        io.err(text);
      },
    },
    finish(code, message) {
      if (code !== EXIT.ok && !printed) {
        io.out(
          JSON.stringify({
            error: { code: EXIT_NAMES[code] ?? 'failed', message: message ?? (said.join('\n').trim() || 'failed') },
          }),
        );
      }
      return code;
    },
  };
}

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    given.out(usage());
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  // Looked for before parsing, so a line the parser refuses still answers in JSON.
  const json = argv.includes('--json');
  const wrapped = json ? jsonFailures(given) : { io: given, finish: (code: number) => code };
  const io = wrapped.io;
  let parsed;
  try {
    parsed = parseCommandLine(commands, argv, given.out);
  } catch (error) {
    if (!(error instanceof ParseStop)) throw error;
    if (error.helpShown) return EXIT.ok;
    const hint = error.command ? `studio ${error.command.name} --help` : 'studio --help';
    io.err(`${error.message}\nNothing was sent. See: ${hint}`);
    return wrapped.finish(EXIT.usage, error.message);
  }
  const { command, args } = parsed;
  try {
    return wrapped.finish(await command.run(args, io));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nUsage: studio ${usageLine(command)}`);
      return wrapped.finish(EXIT.usage, error.message);
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(message);
    return wrapped.finish(exitFor(error), message);
  }
}

/** The engine's refusals of paid work (StudioError codes): nothing was sent, so the exit is "refused". */
const MONEY_REFUSALS: ReadonlySet<string> = new Set(['confirmation-required', 'spending-limit']);

const OWNER_FAILURE_EXITS: Record<string, number> = {
  'refused-before-sending': EXIT.refused,
  // The owner's engine refused the money (not confirmed, past the day's limit): nothing was sent.
  ...Object.fromEntries([...MONEY_REFUSALS].map((code) => [code, EXIT.refused])),
  'invalid-arguments': EXIT.usage,
  invalid: EXIT.usage,
  network: EXIT.unavailable,
  timeout: EXIT.unavailable,
  // An owner that takes no local files from other commands (its channel opened without importers).
  'not-served': EXIT.unavailable,
};

/** A thrown error's exit code: refused before sending 3, what could not be reached 4, anything else a failure of the work. */
function exitFor(error: unknown): number {
  if (error instanceof RefusedError) return EXIT.refused;
  // This run's own engine refused the money, as an owner's would: the same exit either way.
  if (error instanceof StudioError && MONEY_REFUSALS.has(error.code)) return EXIT.refused;
  if (error instanceof OwnerRefusedError) return EXIT.unavailable;
  // The queue's Redis cannot be used (not reached, the password refused, not Redis): nothing was sent.
  if (error instanceof QueueUnavailableError) return EXIT.unavailable;
  // A call the folder's owner answered with a failure: its code says what kind of failure it was.
  if (error instanceof OwnerCallError) return OWNER_FAILURE_EXITS[String(error.code)] ?? EXIT.failed;
  if (error instanceof DataFolderBusyError || (error instanceof Error && error.cause instanceof DataFolderBusyError))
    return EXIT.unavailable;
  // A data folder that is missing, a file, or not a studio's: the records asked for cannot be reached.
  if (error instanceof DataFolderUnusableError) return EXIT.unavailable;
  if (isServiceError(error) && (error.kind === 'network' || error.kind === 'timeout')) return EXIT.unavailable;
  return EXIT.failed;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  void runCli(process.argv.slice(2)).then((code) => exitWhenDone(code));
}
