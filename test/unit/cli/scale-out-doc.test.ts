// Issue 64's done-when: docs/scale-out.md's walkthrough, run as written from a fresh folder. The shell
// blocks of its "Running campaigns and batches on workers" section are read from the page itself (so the
// page and the test cannot drift apart), each run by bash as a terminal of its own in one new folder, in
// the page's order: Redis (Debian's), the sandbox in its own process, two workers, the campaign. Only the
// two ports are swapped for free ones, and `studio` is on the PATH as `npm link` would put it.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'studio-scale-out-doc-'));
const started: ChildProcess[] = [];
afterAll(() => {
  // Each terminal is a process group of its own (npm's and bash's children included).
  for (const child of started)
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
  rmSync(dir, { recursive: true, force: true });
});

/** The ```sh blocks of one section of a Markdown page, each without the indent of its fence. */
export function shellBlocks(markdown: string, heading: string): string[] {
  const from = markdown.indexOf(`\n${heading}\n`);
  if (from < 0) throw new Error(`the page has no section "${heading}"`);
  const next = markdown.indexOf('\n## ', from + heading.length + 2);
  const section = markdown.slice(from, next < 0 ? undefined : next);
  return [...section.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n'),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

/** What a terminal says once the long-lived program it ends with is ready; a block without one must exit 0. */
const READY: [RegExp, string][] = [
  [/^redis-server /m, 'Ready to accept connections'],
  [/ run emulator /, 'listening on'],
  [/^studio worker /m, 'takes rows from'],
];

interface Terminal {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string>;
}

/** This process's environment as a new terminal would have it: without what npm set for the test run. */
function shellEnv(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'INIT_CWD'),
  );
}

function terminal(script: string, env: Record<string, string>): Terminal {
  const child = spawn('bash', ['-e', '-c', script], {
    cwd: dir,
    env: { ...shellEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, output: () => output, exited };
}

/** Settles once the terminal printed `text`; fails if it ends first, or after the hang guard. */
function whenPrinted(term: Terminal, text: string, guardMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" in ${guardMs / 1000} s: ${term.output()}`)), guardMs);
    const look = () => {
      if (!term.output().includes(text)) return;
      clearTimeout(timer);
      resolve();
    };
    term.child.stdout?.on('data', look);
    term.child.stderr?.on('data', look);
    void term.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the terminal ended (${code}) before it said "${text}": ${term.output()}`));
    });
  });
}

describe('docs/scale-out.md, run as written', () => {
  it('makes a campaign on two workers from a fresh folder', async () => {
    const page = readFileSync(join(repoRoot, 'docs', 'scale-out.md'), 'utf8');
    const blocks = shellBlocks(page, '## Running campaigns and batches on workers');
    expect(blocks.length).toBeGreaterThanOrEqual(4);

    // `studio` on the PATH, as `npm link` in the checkout installs it.
    const bin = join(dir, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'studio'), `#!/bin/sh\nexec node ${join(repoRoot, 'electron/cli/bin.mjs')} "$@"\n`);
    chmodSync(join(bin, 'studio'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}`, STUDIO_HOME: repoRoot };
    const [redisPort, sandboxPort] = [await freePort(), await freePort()];
    const ports = (script: string) =>
      script.replaceAll('6380', String(redisPort)).replaceAll('4780', String(sandboxPort));

    let last: Terminal | null = null;
    for (const block of blocks) {
      const script = ports(block);
      const term = terminal(script, env);
      const ready = READY.find(([program]) => program.test(script));
      if (ready) await whenPrinted(term, ready[1], 120_000);
      else {
        // A block that ends: it must succeed before the next one starts.
        last = term;
        const code = await Promise.race([
          term.exited,
          new Promise<string>((resolve) => setTimeout(() => resolve('still running after 5 minutes'), 300_000)),
        ]);
        expect(code, term.output()).toBe(0);
      }
    }

    // The campaign the last block ran: every row's video saved by the studio that started it, and the manifest.
    expect(last, 'the walkthrough ends with a command that finishes').not.toBeNull();
    const videos = join(dir, 'videos');
    expect(existsSync(join(videos, 'manifest.csv')), last?.output()).toBe(true);
    const saved = readdirSync(videos).filter((f) => f.endsWith('.mp4'));
    expect(saved).toHaveLength(2);
    expect(readFileSync(join(videos, 'manifest.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    // Made by the workers, not by the command that queued them.
    const byWorkers = ['results-1', 'results-2']
      .map((folder) => join(dir, folder))
      .filter((folder) => existsSync(folder))
      .flatMap((folder) => readdirSync(folder).flatMap((run) => readdirSync(join(folder, run))))
      .filter((f) => f.endsWith('.mp4'));
    expect(byWorkers).toHaveLength(2);
  }, 600_000);
});
