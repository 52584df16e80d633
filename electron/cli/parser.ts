import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError, isPaid, type CliArgument, type CliCommand, type CliOption, type ParsedArgs } from './command';

/**
 * Turns each command's declared arguments and options into a commander program: commander refuses
 * unknown options with a suggestion ("Did you mean --resolution?"), checks required options, choices
 * and (through the declared ranges) numbers before the command runs, and prints `--help` for every
 * command and group. The declarations stay plain data, so docs/generate.ts writes docs/cli.md from them.
 */

/** The options every command accepts (the help and docs/cli.md list them). */
export const GLOBAL_OPTIONS: readonly CliOption[] = [
  {
    name: '--connection',
    value: 'NAME',
    help: "a connection from Settings (default: each job's own; new work: the sandbox)",
  },
  {
    name: '--base-url',
    value: 'URL',
    help: 'a service address; credentials from STUDIO_API_KEY or STUDIO_CLIENT_ID + STUDIO_CLIENT_SECRET',
  },
  {
    name: '--data-dir',
    value: 'DIR',
    help: 'where the studio keeps its records (default: STUDIO_DATA_DIR or the per-user folder)',
  },
  { name: '--verbose', help: 'log what happens on stderr' },
];

/**
 * What a command that makes paid work accepts besides its own options. One place, so every paid command asks
 * the same way and a script confirms with the same switch.
 */
export const PAID_OPTIONS: readonly CliOption[] = [
  { name: '--yes', help: 'send the paid work without asking (scripts need this or nothing is sent)' },
];

/** Every option of a command: its own, the paid switch when it creates paid work, then the global ones. */
export function optionsOf(command: CliCommand): CliOption[] {
  return [...(command.options ?? []), ...(isPaid(command) ? PAID_OPTIONS : []), ...GLOBAL_OPTIONS];
}

function optionText(option: CliOption): string {
  if (!option.value) return option.name;
  // Short lists of choices read best in the synopsis; a long one stays its placeholder (--help lists it).
  const value = option.choices && option.choices.join('|').length <= 32 ? option.choices.join('|') : option.value;
  return `${option.name} ${value}${option.multiple ? '…' : ''}`;
}

function argumentText(argument: CliArgument): string {
  const name = `${argument.name}${argument.variadic ? '…' : ''}`;
  return argument.required ? name : `[${name}]`;
}

/** One line of synopsis, e.g. "jobs wait ID [--timeout SECONDS] [--json]" (global options left out). */
export function usageLine(command: CliCommand): string {
  const parts = [command.name, ...(command.arguments ?? []).map(argumentText)];
  for (const option of [...(command.options ?? []), ...(isPaid(command) ? PAID_OPTIONS : [])]) {
    parts.push(option.required ? optionText(option) : `[${optionText(option)}]`);
  }
  return parts.join(' ');
}

function rangeParser(option: CliOption): ((value: string, previous: unknown) => unknown) | undefined {
  const range = option.range;
  if (!range) return undefined;
  return (value) => {
    const number = Number(value);
    const whole = range.integer ? Number.isInteger(number) : true;
    if (value.trim() === '' || !Number.isFinite(number) || !whole || number < range.min || number > range.max) {
      throw new InvalidArgumentError(
        `${option.name} must be ${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}`,
      );
    }
    return value;
  };
}

/** The help of an option with what the parser enforces, so `--help` and docs/cli.md say what is refused. */
export function optionHelp(option: CliOption, withChoices = true): string {
  const facts = [
    option.required ? 'required' : '',
    withChoices && option.choices ? `one of ${option.choices.join(', ')}` : '',
    option.range
      ? `${option.range.integer ? 'a whole number' : 'a number'} from ${option.range.min} to ${option.range.max}`
      : '',
    option.multiple ? 'one or more' : '',
  ].filter(Boolean);
  return facts.length ? `${option.help} (${facts.join('; ')})` : option.help;
}

function commanderOption(option: CliOption): Option {
  const flags = option.value ? `${option.name} <${option.value}${option.multiple ? '...' : ''}>` : option.name;
  // Commander lists the choices itself.
  const built = new Option(flags, optionHelp(option, false));
  if (option.choices) built.choices(option.choices);
  if (option.required) built.makeOptionMandatory();
  const parse = rangeParser(option);
  if (parse) built.argParser(parse);
  return built;
}

export interface Parsed {
  command: CliCommand;
  args: ParsedArgs;
}

/** The outcome commander reached without a command to run: help printed, or a usage error. */
export class ParseStop extends Error {
  constructor(
    readonly helpShown: boolean,
    message: string,
    /** The command whose line was wrong, when one was found. */
    readonly command?: CliCommand,
  ) {
    super(message);
  }
}

/**
 * Parses `argv` against every command's declarations. Returns the command and its arguments in the
 * shape the commands read (`flags['--name']`), or throws ParseStop (help shown, or what was wrong).
 */
export function parseCommandLine(
  commands: readonly CliCommand[],
  argv: readonly string[],
  out: (text: string) => void,
): Parsed {
  let chosen: Parsed | undefined;
  let errors = '';
  const configure = (cmd: Command) =>
    cmd
      .exitOverride()
      .showSuggestionAfterError(true)
      .helpOption('-h, --help', 'this help')
      .configureOutput({ writeOut: (text) => out(text.trimEnd()), writeErr: (text) => (errors += text) });
  const program = configure(new Command('studio'));
  program.addHelpCommand(false);
  const groups = new Map<string, Command>();
  for (const command of commands) {
    const words = command.name.split(' ');
    let parent = program;
    for (const word of words.slice(0, -1)) {
      let group = groups.get(word);
      if (!group) {
        group = configure(parent.command(word).description(`${word} commands`));
        group.addHelpCommand(false);
        groups.set(word, group);
      }
      parent = group;
    }
    const leaf = configure(parent.command(words[words.length - 1]).description(command.summary));
    leaf.usage(`${usageLine(command).slice(command.name.length + 1)} [flags every command takes]`.trim());
    for (const argument of command.arguments ?? []) leaf.argument(argumentSyntax(argument), argument.help);
    const declared = optionsOf(command);
    for (const option of declared) leaf.addOption(commanderOption(option));
    leaf.action((...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const values = self.opts();
      const flags: ParsedArgs['flags'] = {};
      for (const option of declared) {
        const value = values[new Option(option.value ? `${option.name} <v>` : option.name).attributeName()];
        if (value === undefined || value === false) continue;
        flags[option.name] = value as string | true | string[];
      }
      chosen = { command, args: { positional: [...self.args], flags } };
    });
  }
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const helpShown = error.code === 'commander.helpDisplayed' || error.code === 'commander.help';
    // A group named without a command ("studio live") shows its commands: a usage error, like no command.
    const code = error.code === 'commander.help' ? 'usage' : '';
    throw new ParseStop(
      helpShown && code !== 'usage',
      (errors || error.message).replace(/^error: /, '').trim(),
      commandFromWords(commands, argv),
    );
  }
  if (!chosen) throw new ParseStop(false, errors.trim() || 'No command given', undefined);
  return chosen;
}

function argumentSyntax(argument: CliArgument): string {
  const name = `${argument.name}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/** The command the leading words name, for saying which synopsis a wrong line broke. */
function commandFromWords(commands: readonly CliCommand[], argv: readonly string[]): CliCommand | undefined {
  return [...commands]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((command) => command.name.split(' ').every((word, i) => argv[i] === word));
}

export { UsageError };
