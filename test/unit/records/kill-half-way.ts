import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/**
 * Runs an import's child script (a studio's start on `dir`) until it prints a line starting with `until`;
 * `kill` then ends it with SIGKILL half way, else it must exit 0. Answers the line it printed.
 */
export function runImportChild(
  script: string,
  dir: string,
  args: string[],
  until: string,
  kill: boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/unit/records', script), dir, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    let stderr = '';
    let heard: string | null = null;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      said += d.toString();
      const line = said.split('\n').find((l) => l.startsWith(until));
      if (line && heard === null) {
        heard = line;
        if (kill) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const expected = kill ? signal === 'SIGKILL' : code === 0;
      if (heard !== null && expected) resolve(heard);
      else reject(new Error(`child ended with ${signal ?? code} having said ${JSON.stringify(said)}: ${stderr}`));
    });
  });
}
