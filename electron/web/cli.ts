// `npm run web -- [--port N] [--open] [--data-dir DIR]`: serves the studio on 127.0.0.1 and prints one
// line with its address (which carries the access token). It opens a browser only with --open.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { defaultDataDir } from '../services/host/data-dir';
import { startWebHost, type WebHostOptions } from './web-host';
import { DataFolderBusyError } from '../services/host/data-folder-lock';
import { stopSignals } from '../services/host/stop-signals';

/** A stop that has not ended the host by then ends it outright: a host ends within 5 s of Ctrl-C or SIGTERM. */
const STOP_LIMIT_MS = 4_500;

export interface WebCliArgs {
  port: number;
  open: boolean;
  dataDir: string | undefined;
}

export function parseWebArgs(argv: readonly string[]): WebCliArgs {
  const args: WebCliArgs = { port: 0, open: false, dataDir: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--port') {
      const text = value();
      const port = Number(text);
      if (!/^\d+$/.test(text) || port > 65535)
        throw new Error(`--port must be a number from 0 to 65535, not "${text}"`);
      args.port = port;
    } else if (flag === '--open') args.open = true;
    else if (flag === '--data-dir') args.dataDir = value();
    else throw new Error(`Unknown option "${arg}". Usage: npm run web -- [--port N] [--open] [--data-dir DIR]`);
  }
  return args;
}

/** With STUDIO_STARTUP_TRACE set, start-up milestones go to stderr (read by `npm run bench startup`). */
function trace(milestone: string): void {
  if (process.env.STUDIO_STARTUP_TRACE) console.error(`startup: ${milestone}`);
}

function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => console.error(`Could not open a browser (${command}); open the address above yourself.`));
  child.unref();
}

/** Printed once the folder's records are open, after the address (the first start may take old records in meanwhile). */
export const READY_LINE = "Avatar Studio's records are open.";

/**
 * Parses the command line, starts the host and stops it on SIGINT/SIGTERM (`npm run web`). Tests that
 * run the host as a process of its own pass their sandbox settings (short jobs), or skip the page's build.
 */
export async function main(extra: Pick<WebHostOptions, 'sandbox' | 'skipBuild'> = {}): Promise<void> {
  trace('modules loaded');
  let args: WebCliArgs;
  try {
    args = parseWebArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // Ctrl-C or SIGTERM, heard from the start: an orderly close (records written, connections let go), cut
  // short past STOP_LIMIT_MS whatever holds it (a queue's Redis that has gone), at once on a second signal.
  const { asked } = stopSignals({
    say: (line) => console.error(line),
    what: 'The web host',
    limitMs: STOP_LIMIT_MS,
    code: 1,
  });
  const host = await startWebHost({
    root: join(import.meta.dirname, '..', '..'),
    dataDir: args.dataDir ?? defaultDataDir(),
    port: args.port,
    onBuild: () => console.error('Building the studio page (first run or sources changed)…'),
    echo: (line) => console.error(line),
    sandbox: extra.sandbox,
    skipBuild: extra.skipBuild,
  }).catch((error: unknown) => {
    if (!(error instanceof DataFolderBusyError)) throw error;
    console.error(error.message);
    process.exit(1);
  });
  trace('host listening');
  console.log(`Avatar Studio is at ${host.url}`);
  if (args.open) openBrowser(host.url);
  // The page is served at once; scripts that need the records (or a bench timing the start) wait for this.
  host.ready.then(
    () => console.log(READY_LINE),
    () => undefined, // The host has logged why, and its page says so.
  );

  // main resolves once the host serves (the launcher then keeps the bundle's code cache); the stop comes later.
  void asked.then(async () => {
    await host.close().catch(() => undefined);
    process.exit(0);
  });
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`The web host could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
