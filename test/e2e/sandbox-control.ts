// The built-in sandbox's control route, called as a test's client would call it.
import { expect } from 'vitest';
import { reachRunningSandbox } from '../../electron/emulator/built-in';

/**
 * Holds every job of the sandbox serving `dataDir` at processing (`on`), or lets them end: a test then
 * acts while work is under way however fast or busy the machine is, instead of racing a job's second.
 */
export async function holdSandboxJobs(dataDir: string, on: boolean): Promise<void> {
  const { url, apiKey } = await reachRunningSandbox(dataDir);
  const answer = await fetch(`${url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ holdJobs: on }),
  });
  expect(((await answer.json()) as { data: { holdJobs: boolean } }).data.holdJobs).toBe(on);
}
