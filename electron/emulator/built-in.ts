import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../services/projects/atomic-file';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from './index';
import { readSandboxAccessKey } from './state/access-key';

/** How many earlier ports are remembered (each one a link origin that keeps opening). */
const EARLIER_PORTS_KEPT = 16;

const PortRecord = z.object({
  port: z.number().int().min(1).max(65535),
  earlier: z.array(z.number().int().min(1).max(65535)),
});
export type PortRecord = z.infer<typeof PortRecord>;

export const portRecordPath = (sandboxDir: string) => join(sandboxDir, 'port.json');

/** The recorded port of a data folder's sandbox; an unreadable record counts as none (a port is chosen again). */
export function readPortRecord(sandboxDir: string): PortRecord | null {
  try {
    return PortRecord.parse(JSON.parse(readFileSync(portRecordPath(sandboxDir), 'utf8')));
  } catch {
    return null;
  }
}

/**
 * The built-in sandbox of a data folder, as the desktop app, the web host and the CLI start it. It keeps
 * one port per data folder (chosen once, another only when that one is taken), so result links, saved
 * projects and the Library's "Open" survive restarts; links from any earlier port stay its own (served
 * there while the port is free, read from disk by jobs always). Records live in `<dataDir>/sandbox`, so
 * jobs running across a restart resume and complete.
 */
/** What a host may choose of its built-in sandbox (the data folder decides where it lives and listens). */
export type BuiltInSandboxOptions = Omit<EmulatorOptions, 'dataDir' | 'port' | 'portFallback' | 'earlierPorts'>;

export async function startBuiltInSandbox(
  dataDir: string,
  extra: BuiltInSandboxOptions = {},
): Promise<RunningEmulator> {
  const sandboxDir = join(dataDir, 'sandbox');
  await mkdir(sandboxDir, { recursive: true });
  const record = readPortRecord(sandboxDir);
  const sandbox = await startEmulator({
    ...extra,
    dataDir: sandboxDir,
    port: record?.port ?? 0,
    portFallback: true,
    earlierPorts: record ? [record.port, ...record.earlier] : [],
  });
  const port = Number(new URL(sandbox.url).port);
  if (port !== record?.port) {
    const earlier = record
      ? [record.port, ...record.earlier].filter((p) => p !== port).slice(0, EARLIER_PORTS_KEPT)
      : [];
    await writeFileAtomic(portRecordPath(sandboxDir), `${JSON.stringify({ port, earlier })}\n`);
  }
  return sandbox;
}

/**
 * Whether `link` points at this data folder's built-in sandbox (its port now or any earlier one, on a
 * loopback address): such a link opens only while that sandbox runs, so whoever fetches it starts it first.
 */
export function isBuiltInSandboxLink(dataDir: string, link: string): boolean {
  const record = readPortRecord(join(dataDir, 'sandbox'));
  if (!record) return false;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return false;
  return [record.port, ...record.earlier].includes(Number(url.port));
}

/**
 * The sandbox another process runs on this data folder (the one holding its lock), for a command that
 * must not start a second sandbox on the same records: its address and key, once it has answered.
 */
export async function reachRunningSandbox(dataDir: string): Promise<{ url: string; apiKey: string }> {
  const sandboxDir = join(dataDir, 'sandbox');
  const record = readPortRecord(sandboxDir);
  const key = readSandboxAccessKey(sandboxDir);
  if (!record || !key)
    throw new Error(
      `The studio that holds ${dataDir} has not started its sandbox yet; open the Editor there once, or close it.`,
    );
  const url = `http://127.0.0.1:${record.port}`;
  const answered = await fetch(`${url}/api/open/v0/common/auth/token`, {
    method: 'POST',
    signal: AbortSignal.timeout(5_000),
  }).then(
    () => true,
    () => false,
  );
  if (!answered) throw new Error(`The sandbox of the studio that holds ${dataDir} does not answer at ${url}.`);
  return { url, apiKey: key.apiKey };
}

/** `startBuiltInSandbox` in the shape `composeHost` asks for (every host starts its folder's sandbox this way). */
export function builtInSandboxStarter(
  dataDir: string,
  extra: BuiltInSandboxOptions = {},
): () => Promise<{ baseUrl: string; apiKey: string; close(): Promise<void> }> {
  return async () => {
    const sandbox = await startBuiltInSandbox(dataDir, extra);
    return { baseUrl: sandbox.url, apiKey: sandbox.apiKey, close: () => sandbox.close() };
  };
}
