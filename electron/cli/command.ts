import type { PaidAction } from '../common/jobs/cost-model';
import type { BuiltInSandboxOptions } from '../emulator/built-in';

/** What a command may touch: its output streams and the environment (tests pass fakes). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /**
   * Settles once what `out` wrote has been taken by its reader (default: at once). Output of any length
   * (`jobs list --json`) waits on it now and then, so a slow reader holds it back instead of memory filling.
   */
  drained?: () => Promise<void>;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input as text (tests pass it; default: the process's). */
  stdin?: () => Promise<string>;
  /** Whether `err` writes to a terminal (default: whether the process's stderr is one). */
  terminal?: boolean;
  /** The timer that repeats a plain progress line (tests pass one they tick; default setInterval). */
  every?: (ms: number, tick: () => void) => () => void;
  /**
   * Settings of the folder's built-in sandbox when this run starts it, as the web host's `main` takes
   * them (tests: jobs that end sooner); default: the sandbox's own.
   */
  sandbox?: BuiltInSandboxOptions;
}

export interface ParsedArgs {
  positional: string[];
  /** By declared name: a value, `true` for a switch given, a list for a `multiple` option. */
  flags: Record<string, string | true | string[]>;
}

/** One option of a command, declared once: the parser, `--help` and docs/cli.md all read it. */
export interface CliOption {
  /** With the dashes: "--resolution". */
  name: string;
  /** The value's placeholder ("RES"); an option without one is a switch. */
  value?: string;
  help: string;
  required?: boolean;
  /** The only values taken; anything else is refused before the command runs. */
  choices?: readonly string[];
  /** A number in this range (kept as the text given; the command reads it). */
  range?: { min: number; max: number; integer?: boolean };
  /** Takes one or more values: `--face URL URL` or `--face URL --face URL`. */
  multiple?: boolean;
}

export interface CliArgument {
  /** As the synopsis shows it: "ID", "FILE". */
  name: string;
  help: string;
  required?: boolean;
  variadic?: boolean;
}

/** One `studio` command, e.g. name "jobs wait"; its synopsis is written from the declarations. */
export interface CliCommand {
  name: string;
  summary: string;
  arguments?: readonly CliArgument[];
  options?: readonly CliOption[];
  /**
   * The kinds of paid work it creates. A command that makes any also accepts `--yes` (parser.ts
   * PAID_OPTIONS) and must not send without it or an answer at the prompt; the kind registry's test
   * checks that every kind is made by some command.
   */
  makes?: readonly PaidAction[];
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** Whether the command creates paid work, and so takes `--yes` and asks first. */
export const isPaid = (command: CliCommand): boolean => (command.makes?.length ?? 0) > 0;

/**
 * Exit codes, one table for every command (docs/cli.md prints it): scripts branch on them. With
 * --json a failure also prints `{ "error": { "code": <the name>, "message" } }` on stdout.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3, unavailable: 4, paused: 5 } as const;
export type ExitName = keyof typeof EXIT;

export const EXIT_MEANINGS: Record<ExitName, string> = {
  ok: 'done: every job sent completed, or the command did what it says',
  failed: 'a job failed or did not finish, or the work itself failed (a download, a render)',
  usage:
    'the command line was wrong (unknown or misspelt flag, a value outside its choices or range, a required one missing): nothing was sent',
  refused:
    'refused before sending: a check on the media, the price not confirmed (--yes), past the daily spending limit set in Settings, the same request sent before (--again); nothing was sent',
  unavailable:
    "the service, the sandbox, the data folder or a queue's Redis could not be reached (or the queue refused its password, or is not Redis): nothing was sent",
  paused:
    "a batch or campaign paused: the account ran out of credits, today's spending limit was reached, the run reached --max-credits, its queue's Redis has not answered for 20 s, its user pressed Pause in the studio, or Ctrl-C stopped following a queued run (its rows go on at the workers); the command exits at once, what was sent finishes at the service, and no row failed for it: top up (or raise the limit, bring the queue back, or resume it in the studio) and run the same command again to go on",
};

/** Nothing was sent because the user did not agree to it (a price not confirmed): exit 3, refused. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}
