import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '@common/api';
import { parseArgs, resolveOptions } from '../../../electron/emulator/options';
import { sealWebhook } from '../../../electron/services/webhooks/webhook-crypto';
import { seededRandom } from '../../seeded-random';
import { CATALOGUE_ROOT, SLOW, until } from './harness';

const SEED = 3030;
const REQUESTS = 240;
const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** Values a hostile or careless client sends: wrong types, extremes, odd links, deep nesting. */
function value(depth = 0): unknown {
  const kinds: (() => unknown)[] = [
    () =>
      pick([
        '',
        ' ',
        'x',
        'ñ🙂',
        'A'.repeat(5000),
        '50%',
        '-1%',
        '1e309',
        'null',
        '../../etc/passwd',
        '%00',
        '<script>',
      ]),
    () => pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1]),
    () => pick([null, true, false]),
    () =>
      pick([
        'http://127.0.0.1:9/none.mp4',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
        'file:///etc/passwd',
        'ftp://x/y',
        'http://',
        'https://example.invalid/a.wav',
        'http://10.0.0.1/a.png',
        'javascript:alert(1)',
      ]),
    () => (depth < 3 ? Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1)) : []),
    () => (depth < 3 ? body(depth + 1) : {}),
  ];
  return pick(kinds)();
}

const FIELDS = [
  'input_text',
  'voice_id',
  'rate',
  'webhookUrl',
  'webhookurl',
  'voice_url',
  'video_url',
  'audio_url',
  'url',
  'img',
  'data',
  'duration',
  'avatar_id',
  'avatar_from',
  'resolution',
  'sourceImage',
  'face_image',
  'clientId',
  'clientSecret',
  '_id',
  'audio_model_id',
  'video_model_id',
  'elements',
  'ratio',
  'offset_x',
  'scale_x',
  'credits',
  '__proto__',
  'constructor',
];

function body(depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 6); i > 0; i -= 1) out[pick(FIELDS)] = value(depth);
  return out;
}

const HOOKS = [
  'http://127.0.0.1:9/hook',
  'http://10.0.0.1/hook',
  'https://example.invalid/hook',
  'not a url',
  'http://169.254.169.254/',
];

/** A job the sandbox accepts, with a callback it cannot deliver, so jobs, timers and deliveries run. */
function acceptedJob(sample: string): { path: string; body: Record<string, unknown> } {
  return pick([
    {
      path: API_PATHS.audioCreate,
      body: {
        input_text: pick(['hi', 'ñ🙂 ' + 'word '.repeat(50)]),
        voice_id: 'sandbox_ava',
        rate: pick(['0%', '50%', '100%']),
        webhookUrl: pick(HOOKS),
      },
    },
    {
      path: API_PATHS.lipSync,
      body: {
        video_url: `${sample}/avatar-SandboxAnna.mp4`,
        audio_url: `${sample}/voice-sandbox_isla.mp3`,
        webhookUrl: pick(HOOKS),
      },
    },
    {
      path: API_PATHS.characterSwapCreate,
      body: {
        video: `${sample}/sandbox-motion.mp4`,
        image: `${sample}/sandbox-face.png`,
        duration: 5,
        webhookurl: pick(HOOKS),
      },
    },
  ]);
}

function request(base: string, apiKey: string): { url: string; init: RequestInit; job?: string } {
  // Few: each is a real render on the machine's cores.
  if (random() < 0.06) {
    const job = acceptedJob(`${base}/sandbox`);
    return {
      url: `${base}${job.path}`,
      init: {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(job.body),
      },
      job: job.path,
    };
  }
  const path = pick([
    ...Object.values(API_PATHS),
    ...Object.values(API_PATHS),
    '/__sandbox/status',
    '/__sandbox/credits',
    '/files/../../etc/passwd',
    '/sandbox/%2e%2e/x',
    '/api/open/v3/',
    '/',
    '/files/' + 'a'.repeat(300),
  ]);
  const method = pick(['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
  const headers: Record<string, string> = {};
  const auth = random();
  if (auth < 0.7) headers['x-api-key'] = apiKey;
  else if (auth < 0.8)
    headers.authorization = pick(['Bearer ', 'Bearer x.y.z', 'Basic Zm9v', 'Bearer ' + 'a'.repeat(8000)]);
  if (random() < 0.2) headers.host = pick(['evil.example', 'localhost:1', '']);
  let payload: string | undefined;
  if (method !== 'GET' && method !== 'OPTIONS') {
    headers['content-type'] = pick([
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
    ]);
    payload = pick([
      () => JSON.stringify(body()),
      () => JSON.stringify(body()),
      () => '{"input_text": ',
      () => '[]',
      () => 'null',
      () => '\u0000\u0001\u0002',
      () => JSON.stringify(value()),
    ])();
  }
  const query =
    path.includes('info') || random() < 0.2
      ? `?${pick(['_id', 'audio_model_id', 'video_model_id', 'id', 'page'])}=${encodeURIComponent(String(value()))}`
      : '';
  return { url: `${base}${path}${query}`, init: { method, headers, body: payload } };
}

/** Bytes that are not HTTP at all, and requests cut off half-way. */
function raw(port: number): Promise<void> {
  const garbage = pick([
    Buffer.from('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999\r\n\r\n{'),
    Buffer.from(Array.from({ length: 512 }, () => Math.floor(random() * 256))),
    Buffer.from('POST /api/open/v3/audio/create HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n'),
  ]);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(garbage);
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    // A cut-off request is left to the server after a second; the sandbox's own deadline ends it there.
    socket.setTimeout(1000, () => socket.destroy());
  });
}

describe('random options for the sandbox', () => {
  it('are either taken and workable or refused with a RangeError naming the option, never another kind of error', () => {
    const flags = [
      '--port',
      '--job-seconds',
      '--credits',
      '--fail-rate',
      '--latency-ms',
      '--placement',
      '--scale',
      '--client-id',
      '--client-secret',
      '--api-key',
      '--token-ttl',
      '--bogus',
    ];
    const values = [
      '0',
      '-1',
      'NaN',
      '1e400',
      '0.5',
      '2',
      'centre',
      'corner',
      'x',
      'conf-secret',
      'k'.repeat(32),
      's'.repeat(16),
      '',
      'Infinity',
    ];
    let refused = 0;
    for (let i = 0; i < 300; i += 1) {
      const argv = Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(flags), pick(values)]).flat();
      if (random() < 0.1) argv.pop();
      try {
        const taken = resolveOptions({ clientSecret: 'k'.repeat(32), ...parseArgs(argv) });
        // Options taken at start must work later: a job's callback is sealed with these credentials.
        expect(
          () => sealWebhook({ _id: 'j', status: 3, type: 'audio', url: '' }, taken, 0),
          argv.join(' '),
        ).not.toThrow();
      } catch (error) {
        expect(error, argv.join(' ')).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(/--?[a-z]|[a-zA-Z]+ must|client/);
        refused += 1;
      }
    }
    // The draw covers both outcomes, or this test would say nothing about one of them.
    expect(refused).toBeGreaterThan(10);
    expect(refused).toBeLessThan(300);
  });
});

describe('a running sandbox under hostile and random requests', { timeout: SLOW }, () => {
  let child: ChildProcess;
  let base = '';
  let apiKey = '';
  let dataDir = '';
  let exited: string | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sandbox-hostile-'));
    child = spawn(
      'node_modules/.bin/tsx',
      [
        'electron/emulator/cli.ts',
        '--port',
        '0',
        '--job-seconds',
        '0.2',
        '--data-dir',
        dataDir,
        '--cache-dir',
        CATALOGUE_ROOT,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}; last stderr:\n${err}`));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        const key = /x-api-key:\s+(\S+)/.exec(out);
        if (url && key && out.includes('clientSecret')) {
          base = url[0];
          apiKey = key[1];
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(exited ?? 'exited')));
    });
  }, SLOW);

  afterAll(async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`answers ${REQUESTS} seeded requests (seed ${SEED}) and stays up while the jobs they made run out`, async () => {
    const port = Number(new URL(base).port);
    const work = Array.from({ length: REQUESTS }, () =>
      random() < 0.1 ? { raw: true as const } : { raw: false as const, ...request(base, apiKey) },
    );
    const accepted = new Set<string>();
    // Eight at a time: enough to overlap requests, few enough not to starve a 2-core machine.
    for (let i = 0; i < work.length; i += 8) {
      await Promise.all(
        work.slice(i, i + 8).map(async (w) => {
          if (w.raw) return raw(port);
          const res = await fetch(w.url, { ...w.init, signal: AbortSignal.timeout(30_000) }).catch(
            (error: Error) => error,
          );
          if (!(res instanceof Response)) return;
          const text = await res.text().catch(() => '');
          if (w.job && text.includes('"code":1000')) accepted.add(w.job);
        }),
      );
      expect(exited, `after request batch ${i / 8}`).toBeNull();
    }
    // Jobs (and their callbacks) go on after their create answered: wait for all of them to end.
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ failRate: 0, http5xxRate: 0, dropRate: 0, dropAfterCreateRate: 0, latencyMs: 0 }),
    });
    type Status = { data: { jobs: { total: number; open: number } } };
    const status = await until(
      async () => (exited ? null : ((await (await fetch(`${base}/__sandbox/status`, { headers })).json()) as Status)),
      (s) => s === null || s.data.jobs.open === 0,
      90_000,
    );
    expect(exited).toBeNull();
    // Jobs of every accepted kind ran, with callbacks that could not be delivered.
    expect([...accepted].sort()).toEqual(
      [API_PATHS.audioCreate, API_PATHS.lipSync, API_PATHS.characterSwapCreate].sort(),
    );
    expect(status?.data.jobs.open).toBe(0);
    expect(status?.data.jobs.total).toBeGreaterThan(0);
    const voices = (await (await fetch(`${base}${API_PATHS.voiceList}`, { headers })).json()) as { code: number };
    expect(voices.code).toBe(1000);
  });
});
