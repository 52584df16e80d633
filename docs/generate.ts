// `npm run docs:cli`: writes the pages derived from the command lines' own declarations, the `studio`
// reference (docs/cli.md, whole) and the sandbox's flags (a block of docs/sandbox.md), so the docs
// cannot drift from what `--help` prints. test/unit/docs/generated-docs.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GLOBAL_FLAGS, commands } from '../electron/cli/index';
import { GLOBAL_OPTIONS, optionHelp, optionsOf, usageLine } from '../electron/cli/parser';
import { EXIT, EXIT_MEANINGS } from '../electron/cli/command';
import { usage as sandboxUsage } from '../electron/emulator/options';
import { withBlock } from './markers';

export const CLI_DOC = 'docs/cli.md';
export const SANDBOX_DOC = 'docs/sandbox.md';
export const SANDBOX_FLAGS = 'sandbox-flags';

const root = join(import.meta.dirname, '..');

/** docs/cli.md: every command's synopsis and summary as its declaration states them, then the shared flags. */
export function cliReference(): string {
  const groups = new Map<string, (typeof commands)[number][]>();
  for (const command of commands) {
    const group = command.name.split(' ')[0];
    groups.set(group, [...(groups.get(group) ?? []), command]);
  }
  const lines = [
    '# The `studio` command line',
    '',
    '<!-- Written by `npm run docs:cli` from the commands in electron/cli/commands; edit those, not this page. -->',
    '',
    'In the repository run it as `npm run cli -- <command>`; once the package is linked, `studio` is the same',
    'command (`electron/cli/bin.mjs`). Relative paths are read against the folder you run it from (under',
    '`npm run`, the folder npm was called from).',
    'Every command reads the same data folder as the app, and follows each job through the connection it',
    "was sent with. `studio <command> --help` prints one command's synopsis and flags, `studio <group> --help`",
    "(jobs, avatars, faces, live, voices, webhook) the group's commands.",
    '',
    '## Beside a running studio',
    '',
    'Every command is one and the same whoever performs it. When the desktop app, the web host or another',
    '`studio` run has the data folder open, the command runs through it: its own services check, upload,',
    'price and send, so the jobs, downloads, batches, campaigns and live sessions appear in its Library',
    '(and Voices and Campaigns workspaces) at once, while this command asks the price question (or takes',
    '`--yes`), prints the progress and exits as it would alone; several can run at once. With no studio',
    'open, the command composes the same services itself (the ones the app runs, with the same Settings,',
    'spending limits, storage and download rules) and, while it runs, serves other `studio` commands the',
    'same way, waiting for them before it exits. A local file named on the command line is handed to the',
    'studio by its absolute path (resolved against your folder): it must be a regular file within the',
    'size the page takes (300 MB for media), is checked as a file dropped on the page is, and is the only',
    "local file the studio reads for that command; it then goes to the studio's active storage, or the",
    "one `upload --storage` names. `download` queues the results in the studio's download manager and",
    'leaves the folder and name template the Library remembers as they were; an interrupted command',
    'leaves its downloads to the open studio, or pauses them to resume on the next run. `tts-batch` and',
    "`campaign run` become the studio's batch and campaign, named after the file and the folder; run",
    'again, they go on with them (paused rows resume, rows edited in the file since and new rows are',
    'made, and `--retry-failed` sends the failed ones again, asked first). The studio sends to its active',
    'connection: a command line asking for another (by default the sandbox, or `--connection NAME`) is',
    'refused before sending. A command given `--base-url` never runs through an open studio: it names a',
    'service and brings credentials (from its environment) that the studio does not hold and would not',
    'send to. Beside a studio it only reads; one that changes the folder, such as `campaign run --queue …',
    '--base-url …` run again while the web host has the folder open, is refused before anything is sent',
    '(exit 4, naming the studio): close the studio first, or leave out `--base-url` to run through it.',
    'Commands that only read write nothing, and also run beside a studio that cannot be reached (through',
    'its sandbox). The channel is on 127.0.0.1 with a token in a file only you can read',
    "(`studio-owner.json` in the data folder). The one secret that crosses it is a queue's password given",
    'to `campaign run --queue` or `tts-batch --queue` (in `STUDIO_QUEUE_URL` or `--queue-password-file`):',
    "the studio then follows the queued run with it, as if it were typed into the page's queue fields.",
    '',
    '## Exit codes',
    '',
    'Every command exits with one of these; with `--json` a failure also prints',
    '`{ "error": { "code": "<name>", "message": "…" } }` on stdout (a command with its own JSON answer, such',
    "as a failed job's record, prints that instead), and an empty result is an empty JSON list (`jobs list --json`,",
    'which prints one job per line, prints no line).',
    '',
    '| Code | Name | Meaning |',
    '|---|---|---|',
    ...Object.entries(EXIT).map(
      ([name, code]) => `| ${code} | \`${name}\` | ${EXIT_MEANINGS[name as keyof typeof EXIT]} |`,
    ),
    '',
    'A command that has finished but is still held open (a connection retrying a Redis that has gone, say)',
    'is ended with its code 5 s later, saying on stderr what stayed open: it never hangs after its last word.',
    '',
    '## The data folder',
    '',
    'It is `--data-dir DIR`, else `STUDIO_DATA_DIR`, else the per-user folder the app uses; the two name a',
    'folder alike (such a folder keeps its archive under it, not in your home folder). The commands that answer from',
    'its records (`jobs list`, `jobs show`, `jobs wait`, `download`, `--missing` too, `campaign status`) open only a folder',
    "that already is a data folder, one holding the studio's records (its `records.db`, the `jobs` folder of earlier versions, `settings.json`,",
    '`connections.json`, `logs`, …): a path that does not exist, a file, or a folder with none of them exits 4',
    '(`unavailable`) with a message naming the path, how it was named and what is wrong, and nothing is',
    'created or written there, so a mistyped path never reads as "no jobs" or "no campaign". `templates list` and',
    '`webhook decode` read a folder not made yet as empty (the starters; no sandbox key to verify with)',
    'and create nothing. The other commands start the folder on their first run, as the app does: those',
    'that make work (`tts`, `tts-batch`, `campaign run`, …) and those that ask the service (`voices list`,',
    '`models`, `avatars list`, …, which set up the sandbox there). A file in its place exits 4 for every',
    'command that uses the folder.',
    '',
    '## Flags every command accepts',
    '',
    '| Flag | What it does |',
    '|---|---|',
    ...GLOBAL_FLAGS.map(([flag, help]) => `| \`${flag}\` | ${help} |`),
    '',
    '## Commands',
    '',
    ...[...groups.values()].flat().map((c) => `- [\`${c.name}\`](#${anchor(c.name)}): ${c.summary}`),
  ];
  for (const command of commands) {
    lines.push(
      '',
      `### studio ${command.name}`,
      '',
      `${capitalise(command.summary)}.`,
      '',
      '```sh',
      `studio ${usageLine(command)}`,
      '```',
    );
    const own = optionsOf(command).filter((o) => !GLOBAL_OPTIONS.includes(o));
    const rows = [
      ...(command.arguments ?? []).map(
        (a) => `| \`${a.name}${a.variadic ? '…' : ''}\` | ${a.help}${a.required ? '' : ' (optional)'} |`,
      ),
      ...own.map((o) => `| \`${o.value ? `${o.name} ${o.value}` : o.name}\` | ${optionHelp(o)} |`),
    ];
    if (rows.length > 0) lines.push('', '| Argument or flag | What it does |', '|---|---|', ...rows);
  }
  return `${lines.join('\n')}\n`;
}

/** The block of docs/sandbox.md listing `npm run emulator`'s flags, as its help prints them. */
export function sandboxFlags(): string {
  return ['```', sandboxUsage(), '```'].join('\n');
}

export function sandboxDoc(current: string): string {
  return withBlock(current, SANDBOX_FLAGS, sandboxFlags());
}

const anchor = (name: string) => `studio-${name.replace(/\s+/g, '-')}`;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  writeFileSync(join(root, CLI_DOC), cliReference());
  const sandboxPath = join(root, SANDBOX_DOC);
  writeFileSync(sandboxPath, sandboxDoc(readFileSync(sandboxPath, 'utf8')));
  console.log(`Wrote ${CLI_DOC} and the flags in ${SANDBOX_DOC}.`);
}
