/** What a command may touch: its output streams and the environment (tests pass fakes). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input as text (tests pass it; default: the process's). */
  stdin?: () => Promise<string>;
}

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | true>;
}

/** One `studio` command, e.g. name "jobs wait", usage "jobs wait <id> [--json] [--timeout SECONDS]". */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** Flags taking a value (the others are switches). */
  valueFlags?: readonly string[];
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** Exit codes: 0 done, 1 the work failed, 2 the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Flags every command accepts, with a value. */
export const COMMON_VALUE_FLAGS = ['--connection', '--base-url', '--data-dir'] as const;

export function parseArgs(argv: readonly string[], valueFlags: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (valueFlags.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      flags[name] = value;
    } else {
      if (eq !== -1) throw new UsageError(`${name} takes no value`);
      flags[name] = true;
    }
  }
  return { positional, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}
