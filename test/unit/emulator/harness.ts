import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { ENDPOINTS, type EndpointName } from '@common/api';
import { sharedCacheDir, startEmulator, type EmulatorOptions } from '../../../electron/emulator';
import type { RunningEmulator } from '../../../electron/emulator';
import { HANG_GUARD_MS, until as waitUntil } from '../../wait';

/** One generated sample-media cache for every test file (generation is atomic, so parallel files are safe). */
export const CATALOGUE_ROOT = sharedCacheDir();

export function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, jobSeconds: 0.2, catalogueDir: CATALOGUE_ROOT, webhookBackoffMs: 50, ...options });
}

/**
 * What a sandbox returns instead of speaking and rendering, written into `dir`: a second of sound and a
 * second of 320x180 video. For tests of how jobs are sent, paid and followed rather than of what they
 * make: a campaign of hundreds of rows then spends its time on that, not on espeak and ffmpeg (the
 * bodies' inputs are still fetched, so a broken link still fails its job).
 */
export function readyMadeResults(dir: string): { speechFixture: string; videoFixture: string } {
  const speechFixture = join(dir, 'ready-made.mp3');
  const videoFixture = join(dir, 'ready-made.mp4');
  const sine = ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=1'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...sine, '-c:a', 'libmp3lame', '-b:a', '64k', speechFixture]);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=1', ...sine],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', videoFixture],
  ]);
  return { speechFixture, videoFixture };
}

/**
 * A sandbox of its own for one test file, in a temporary folder (`dir`, also the file's scratch space),
 * started before its tests and closed, folder and all, after them. `readyMade` gives it the results of
 * `readyMadeResults`.
 */
export function sandboxPerFile(
  prefix: string,
  { readyMade = false, ...options }: EmulatorOptions & { readyMade?: boolean } = {},
): { dir: string; sandbox(): RunningEmulator } {
  let running: RunningEmulator | undefined;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  beforeAll(async () => {
    const made = readyMade ? readyMadeResults(dir) : {};
    running = await start({ jobSeconds: 0.3, dataDir: join(dir, 'sandbox'), ...made, ...options });
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, sandbox: () => running as RunningEmulator };
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Skip the x-api-key header. */
  anonymous?: boolean;
}

/**
 * Calls one operation of the interface the way a client does and checks the answer against the same
 * zod response schema the app's client uses. Returns the parsed JSON.
 */
export async function call<N extends EndpointName>(
  em: RunningEmulator,
  name: N,
  input: Record<string, unknown>,
  o: CallOptions = {},
): Promise<z.infer<(typeof ENDPOINTS)[N]['response']> & Record<string, unknown>> {
  const spec = ENDPOINTS[name];
  const headers: Record<string, string> = { ...(o.anonymous ? {} : { 'x-api-key': em.apiKey }), ...o.headers };
  let url = `${em.url}${spec.path}`;
  let body: string | undefined;
  if (spec.input === 'query') {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(input)) {
      if (Array.isArray(v)) for (const item of v) params.append(`${k}[]`, String(item));
      else if (v !== undefined) params.append(k, String(v));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input);
  }
  const res = await fetch(url, { method: spec.method, headers, body });
  expect(res.headers.get('content-type')).toContain('application/json');
  const json = (await res.json()) as Record<string, unknown>;
  const checked = spec.response.safeParse(json);
  if (!checked.success)
    throw new Error(
      `${name} answered outside its schema: ${JSON.stringify(checked.error.issues[0])}\n${JSON.stringify(json)}`,
    );
  return json as never;
}

/** Data of a successful business envelope (fails the test with the message otherwise). */
export function dataOf<T>(envelope: { code: number; msg: string; data?: T }): T {
  expect(envelope, envelope.msg).toMatchObject({ code: 1000 });
  return envelope.data as T;
}

/**
 * Asks `fn` again until its answer satisfies `done`, and returns that answer. The guard is only against a
 * hang: a sandbox job of a fraction of a second may take many seconds on a busy machine, and that must
 * not fail a test. When the guard fires, the error names what was awaited and the last answer seen.
 */
export async function until<T>(
  fn: () => Promise<T>,
  done: (v: T) => boolean,
  guardMs = HANG_GUARD_MS,
  what = 'the sandbox to answer as awaited',
): Promise<T> {
  let answer: T | undefined;
  await waitUntil(
    what,
    async () => {
      const v = await fn();
      if (!done(v)) throw new Error(`last answer ${JSON.stringify(v)}`);
      answer = v;
      return true;
    },
    guardMs,
  );
  return answer as T;
}

export interface Probe {
  duration: number;
  width?: number;
  height?: number;
  fps?: number;
  hasAudio: boolean;
  hasVideo: boolean;
}

/** ffprobe of a URL or file: what a user's player would see. (Async: the sandbox runs in this process.) */
export async function probe(input: string): Promise<Probe> {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input],
      (error, out, err) => (error ? reject(new Error(`ffprobe failed on ${input}: ${err}`)) : resolve(out)),
    ),
  );
  const j = JSON.parse(stdout) as {
    format: { duration?: string };
    streams: { codec_type: string; width?: number; height?: number; avg_frame_rate?: string }[];
  };
  const v = j.streams.find((s) => s.codec_type === 'video');
  const [a, b] = (v?.avg_frame_rate ?? '0/1').split('/').map(Number);
  return {
    duration: Number(j.format.duration ?? 0),
    width: v?.width,
    height: v?.height,
    fps: b ? a / b : undefined,
    hasAudio: j.streams.some((s) => s.codec_type === 'audio'),
    hasVideo: Boolean(v),
  };
}

export const sample = (em: RunningEmulator, name: string) => `${em.url}/sandbox/${name}`;

/** A loopback HTTP server for media that is not the sandbox's own (files from `dir`, plus special routes). */
export async function serveDir(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const { createReadStream, existsSync } = await import('node:fs');
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    if (name === 'huge.mp4') {
      // Declares a file larger than the lip sync limit; the sandbox must refuse before reading it.
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(301 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      return;
    }
    const path = join(dir, name);
    if (!name || name.includes('/') || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Runs ffmpeg for test fixtures. */
export async function ffmpeg(args: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    execFile('ffmpeg', ['-v', 'error', '-y', ...args], (error, _o, err) =>
      error ? reject(new Error(err)) : resolve(),
    ),
  );
}

/** Timeout for hooks and tests that start a sandbox or render media (the first start generates samples). */
export const SLOW = 120_000;

/** Mean loudness in dB of a file's audio (about -91 for digital silence). */
export async function meanVolume(input: string): Promise<number> {
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(
      'ffmpeg',
      ['-hide_banner', '-nostats', '-i', input, '-vn', '-af', 'volumedetect', '-f', 'null', '-'],
      (error, _o, err) => (error ? reject(new Error(err)) : resolve(err)),
    ),
  );
  const m = /mean_volume:\s*(-?[\d.]+) dB/.exec(stderr);
  if (!m) throw new Error(`no volume measured for ${input}`);
  return Number(m[1]);
}

/** Starts one sandbox for a describe block and closes it after; read it as `sandbox.em` inside tests. */
export function useSandbox(options: EmulatorOptions = {}): { readonly em: RunningEmulator } {
  const ref: { em?: RunningEmulator } = {};
  beforeAll(async () => {
    ref.em = await start(options);
  }, SLOW);
  afterAll(() => ref.em?.close());
  return {
    get em(): RunningEmulator {
      if (!ref.em) throw new Error('the sandbox has not started');
      return ref.em;
    },
  };
}
