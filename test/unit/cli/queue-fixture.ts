// Workers for the tests of runs made on a queue: `studio worker` processes against one sandbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../bench/jobs.bench';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** A `studio worker` in its own process and data folder; settles once it says it takes rows. */
export async function startWorker(
  dir: string,
  name: string,
  queue: string,
  service: Sandbox,
  children: ChildProcess[],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'electron/cli/index.ts'),
      'worker',
      '--queue',
      queue,
      '--name',
      name,
      '--base-url',
      service.url,
      '--data-dir',
      join(dir, `${name}-data`),
      '--out',
      join(dir, `${name}-out`),
    ],
    { cwd: repoRoot, env: { ...process.env, STUDIO_API_KEY: service.apiKey }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('takes rows from')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker ${name} exited (${code}): ${said}`)));
  });
  return child;
}
