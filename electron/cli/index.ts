import { pathToFileURL } from 'node:url';
import { COMMON_VALUE_FLAGS, EXIT, UsageError, parseArgs, type CliCommand, type CliIo } from './command';
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

/** Every `studio` command. Other areas add theirs with one line each. */
export const commands: readonly CliCommand[] = [
  ...jobsCommands,
  exportBodyCommand,
  renderPreviewCommand,
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

/** The flags every command accepts, with what each does (the help and docs/cli.md list them). */
export const GLOBAL_FLAGS: readonly (readonly [flag: string, help: string])[] = [
  ['--connection NAME', "a connection from Settings (default: each job's own; new work: the sandbox)"],
  ['--base-url URL', 'a service address; credentials from STUDIO_API_KEY or STUDIO_CLIENT_ID + STUDIO_CLIENT_SECRET'],
  ['--data-dir DIR', 'where the studio keeps its records (default: STUDIO_DATA_DIR or the per-user folder)'],
  ['--verbose', 'log what happens on stderr'],
];

export function usage(): string {
  return [
    'Usage: studio <command> [flags]   (in the repo: npm run cli -- <command>)',
    '',
    ...commands.flatMap((c) => [...wrap(c.usage, '  ', '    '), ...wrap(c.summary, '        ', '        ')]),
    '',
    'Every command accepts:',
    ...GLOBAL_FLAGS.flatMap(([flag, text]) => wrap(text, `  ${flag.padEnd(18)}  `, ' '.repeat(22))),
  ].join('\n');
}

function findCommand(argv: readonly string[]): { command: CliCommand; rest: string[] } | undefined {
  // Longest name first, so "jobs wait" wins over a hypothetical "jobs".
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of sorted) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  cwd: process.cwd(),
});

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(usage());
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const found = findCommand(argv);
  if (!found) {
    io.err(`Unknown command "${argv.slice(0, 2).join(' ')}".\n\n${usage()}`);
    return EXIT.usage;
  }
  try {
    const args = parseArgs(found.rest, [...COMMON_VALUE_FLAGS, ...(found.command.valueFlags ?? [])]);
    if (args.flags['--help']) {
      io.out(`Usage: studio ${found.command.usage}\n  ${found.command.summary}`);
      return EXIT.ok;
    }
    return await found.command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nUsage: studio ${found.command.usage}`);
      return EXIT.usage;
    }
    io.err(error instanceof Error ? error.message : String(error));
    return EXIT.failed;
  }
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  void runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
