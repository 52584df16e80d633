import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { JobCallbacks } from '../../../electron/services/jobs/job-callbacks';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { CallbackReceiver, type CallbackOutcome } from '../../../electron/services/webhooks/callback-receiver';
import { sealWebhook } from '../../../electron/services/webhooks/webhook-crypto';
import type { WebhookEvent } from '../../../electron/common/api';

let emulator: RunningEmulator;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'studio-callbacks-'));
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.3,
    dataDir: join(work, 'emulator'),
    catalogueDir: join(tmpdir(), 'avatar-studio-test-catalogue'),
  });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Rig {
  engine: JobEngine;
  callbacks: JobCallbacks;
  receiver: CallbackReceiver;
  tokens: string[];
  url: string;
  /** Requests the engine sent, by path. */
  sent: Map<string, number>;
  /** Callbacks for these job ids are taken in and dropped, as if lost on the way. */
  lose: Set<string>;
  close(): Promise<void>;
}

async function rig(name: string): Promise<Rig> {
  const sent = new Map<string, number>();
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
    fetch: (input: string, init: RequestInit) => {
      const path = new URL(input).pathname;
      sent.set(path, (sent.get(path) ?? 0) + 1);
      return fetch(input, init);
    },
  });
  const tokens: string[] = [];
  const lose = new Set<string>();
  const receiver: CallbackReceiver = new CallbackReceiver({
    path: '/hooks',
    jobs: {
      lookup: (token) => callbacks.lookup(token),
      accept: (jobId, event): CallbackOutcome => (lose.has(jobId) ? 'unchanged' : callbacks.accept(jobId, event)),
    },
    credentials: async () => ({ clientId: emulator.clientId, clientSecret: emulator.clientSecret }),
    log: { info: () => undefined, warn: () => undefined },
  });
  const { port } = await receiver.listen('127.0.0.1', 0);
  const url = `http://127.0.0.1:${port}/hooks`;
  let n = 0;
  const callbacks: JobCallbacks = new JobCallbacks({
    url,
    // Well past any delay a busy machine adds to a callback: what the tests count is polls the faults cost.
    graceMs: 20_000,
    newToken: () => {
      const token = `${name}${String(n++).padStart(4, '0')}`.padEnd(43, 'x');
      tokens.push(token);
      return token;
    },
  });
  const engine = new JobEngine({
    storage: openLedger(join(work, name)),
    connections: { active: async () => ({ id: 'e', name: 'Sandbox', webhookUrl: null }), client: async () => client },
    clock: { now: () => Date.now() },
    callbacks,
  });
  engine.start();
  return {
    engine,
    callbacks,
    receiver,
    tokens,
    url,
    sent,
    lose,
    async close() {
      engine.stop();
      await engine.flush();
      await receiver.close();
    },
  };
}

const speak = (engine: JobEngine, i: number) =>
  engine.submit({
    confirmation: { by: 'script' },
    kind: 'tts',
    body: { input_text: `Callback sentence ${i}.`, voice_id: 'sandbox_ava', rate: '50%' },
  });

/** Settles once no job of the engine is still on its way to an end. */
function settled(engine: JobEngine): Promise<void> {
  return new Promise((resolve) => {
    if (engine.activeCount === 0) return resolve();
    const stop = engine.subscribe(() => {
      if (engine.activeCount > 0) return;
      stop();
      resolve();
    });
  });
}

describe('jobs that follow callbacks', () => {
  it('end by their callbacks without a poll, and the ledger keeps no token', async () => {
    const r = await rig('plain');
    try {
      await Promise.all(Array.from({ length: 8 }, (_, i) => speak(r.engine, i)));
      await settled(r.engine);
      const jobs = r.engine.list();
      expect(jobs.map((j) => j.phase)).toEqual(Array(8).fill('completed'));
      expect(jobs.every((j) => j.resultUrl?.startsWith(emulator.url))).toBe(true);
      expect(r.sent.get('/api/open/v3/audio/create')).toBe(8);
      expect(r.sent.get('/api/open/v3/audio/infobymodelid') ?? 0).toBe(0);
      await r.engine.flush();
      const ledger = readdirSync(join(work, 'plain'))
        .map((f) => readFileSync(join(work, 'plain', f), 'utf8'))
        .join('\n');
      expect(r.tokens).toHaveLength(8);
      for (const token of r.tokens) expect(ledger).not.toContain(token);
      expect(ledger).not.toContain('/hooks');
    } finally {
      await r.close();
    }
  }, 60_000);

  it('polls a job once its callback is overdue: a lost callback costs one request', async () => {
    const r = await rig('lost');
    try {
      // The kind's length is learnt from callbacks first (a cold kind waits a minute before its first poll).
      await Promise.all(Array.from({ length: 4 }, (_, i) => speak(r.engine, i)));
      await settled(r.engine);
      expect(r.sent.get('/api/open/v3/audio/infobymodelid') ?? 0).toBe(0);
      const ids = new Set(r.engine.list().map((j) => j.id));
      // Every third new job's callbacks are lost.
      let k = 0;
      const stop = r.engine.subscribe((job) => {
        if (!ids.has(job.id) && !r.lose.has(job.id) && k++ % 3 === 0) r.lose.add(job.id);
        ids.add(job.id);
      });
      await Promise.all(Array.from({ length: 9 }, (_, i) => speak(r.engine, 10 + i)));
      stop();
      await settled(r.engine);
      expect(r.lose.size).toBe(3);
      expect(r.engine.list().map((j) => j.phase)).toEqual(Array(13).fill('completed'));
      expect(r.sent.get('/api/open/v3/audio/infobymodelid')).toBe(3);
    } finally {
      await r.close();
    }
  }, 120_000);

  it('is changed by no late, duplicate, out-of-order, forged or misdirected callback', async () => {
    const r = await rig('late');
    try {
      const [a, b] = await Promise.all([speak(r.engine, 1), speak(r.engine, 2)]);
      await settled(r.engine);
      if (a.status !== 'submitted' || b.status !== 'submitted') throw new Error('not submitted');
      const first = r.engine.get(a.job.id);
      const creds = { clientId: emulator.clientId, clientSecret: emulator.clientSecret };
      const post = async (token: string, event: WebhookEvent, sealWith = creds) => {
        const res = await fetch(`${r.url}/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(sealWebhook(event, sealWith, Date.now())),
        });
        return res.status;
      };
      const remote = first.remoteId as string;
      const tokenA = r.tokens.find((t) => r.callbacks.lookup(t)?.jobId === a.job.id) as string;
      // Late and out of order: processing after it ended; a failure after it completed.
      expect(await post(tokenA, { _id: remote, status: 2, type: 'audio', url: '' })).toBe(200);
      expect(await post(tokenA, { _id: remote, status: 4, type: 'audio', url: '' })).toBe(200);
      // Forged: sealed with credentials that are not the connection's.
      const forged = { clientId: 'x'.repeat(16), clientSecret: 'y'.repeat(16) };
      expect(await post(tokenA, { _id: remote, status: 3, type: 'audio', url: 'https://evil.example/a' }, forged)).toBe(
        401,
      );
      // Another job's id under this job's token.
      expect(await post(tokenA, { _id: 'someone-else', status: 3, type: 'audio', url: 'https://x.example' })).toBe(409);
      const after = r.engine.get(a.job.id);
      expect(after.phase).toBe('completed');
      expect(after.resultUrl).toBe(first.resultUrl);
      expect(r.engine.get(b.job.id).phase).toBe('completed');
    } finally {
      await r.close();
    }
  }, 60_000);
});
