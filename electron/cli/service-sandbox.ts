import type { Credentials } from '../services/client/auth';

type SandboxStarter = () => Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }>;

/** Whether the service at `baseUrl` is a sandbox (it publishes its price list to this key). */
async function isSandbox(baseUrl: string, apiKey: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/__sandbox/prices`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(5_000),
    });
    const answer = (await response.json().catch(() => null)) as { code?: number } | null;
    return response.ok && answer?.code === 1000;
  } catch {
    return false;
  }
}

/**
 * The sandbox a command line uses for the sandbox's own services (its storage above all): the service
 * that --base-url names when that service is itself a sandbox (`npm run emulator`, on this machine or
 * another), else the folder's built-in one. A worker's pictures and a queued run's media then live at
 * the service every worker and the service itself reach, not in a built-in sandbox that dies with the
 * process that started it (a SIGKILLed worker's links failed every video still being made).
 */
export function serviceSandboxOr(
  baseUrl: string | undefined,
  credentials: Credentials | undefined,
  builtIn: SandboxStarter,
): SandboxStarter {
  if (!baseUrl || credentials?.kind !== 'api-key') return builtIn;
  const apiKey = credentials.apiKey;
  return async () =>
    (await isSandbox(baseUrl, apiKey))
      ? { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, close: async () => undefined }
      : builtIn();
}
