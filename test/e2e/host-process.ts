// The web host as its own process (`npm run web`), for tests that stop it like a crash or a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface HostProcess {
  child: ChildProcess;
  /** The address with the access token, as the host printed it. */
  url: string;
}

export async function startHostProcess(dataDir: string): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/web/cli.ts', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Avatar Studio is at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`web host exited (${code}): ${output}`)));
  });
  return { child, url };
}

/** Stops the host: SIGKILL as a crash would, SIGTERM as a user quitting; resolves once it has exited. */
export async function stopHostProcess(host: HostProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (host.child.exitCode !== null) return;
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill(signal);
  await exited;
}
