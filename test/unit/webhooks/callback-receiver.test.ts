import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../electron/common/api';
import {
  CallbackReceiver,
  type CallbackJobs,
  type CallbackOutcome,
} from '../../../electron/services/webhooks/callback-receiver';
import { sealWebhook } from '../../../electron/services/webhooks/webhook-crypto';

const credentials = { clientId: 'receiver-client-id', clientSecret: 'R'.repeat(16) };
const other = { clientId: 'another-client-id', clientSecret: 'O'.repeat(16) };
const TOKEN = 'A'.repeat(40) + 'b_-';
const NOW = 1_800_000_000_000;

interface Harness {
  url: string;
  accepted: { jobId: string; event: WebhookEvent }[];
  lines: { level: string; message: string; fields?: Record<string, unknown> }[];
  answer: { next: CallbackOutcome };
  post(body: unknown, options?: { token?: string; path?: string; method?: string; raw?: string }): Promise<number>;
}

let receiver: CallbackReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function start(): Promise<Harness> {
  const accepted: Harness['accepted'] = [];
  const lines: Harness['lines'] = [];
  const answer = { next: 'applied' as CallbackOutcome };
  const jobs: CallbackJobs = {
    lookup: (token) => (token === TOKEN ? { jobId: 'job-1', connectionId: 'c1' } : undefined),
    accept: (jobId, event) => {
      accepted.push({ jobId, event });
      return answer.next;
    },
  };
  receiver = new CallbackReceiver({
    path: '/hooks/',
    jobs,
    credentials: async (id) => (id === 'c1' ? credentials : undefined),
    log: {
      info: (message, fields) => lines.push({ level: 'info', message, fields }),
      warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    },
    now: () => NOW,
    maxBodyBytes: 2048,
  });
  const { port } = await receiver.listen('127.0.0.1', 0);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    accepted,
    lines,
    answer,
    async post(body, options = {}) {
      const res = await fetch(`${url}${options.path ?? '/hooks'}/${options.token ?? TOKEN}`, {
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        body: options.method === 'GET' ? undefined : (options.raw ?? JSON.stringify(body)),
      });
      await res.text();
      return res.status;
    },
  };
}

const event = (status: 2 | 3 | 4, url = ''): WebhookEvent => ({ _id: 'remote-1', status, type: 'audio', url });

describe('the callback receiver', () => {
  it('takes in a callback sealed with the connection credentials, once', async () => {
    const h = await start();
    const sealed = sealWebhook(event(3, 'https://cdn.example/a.mp3'), credentials, NOW, '1234');
    expect(await h.post(sealed)).toBe(200);
    expect(h.accepted).toEqual([{ jobId: 'job-1', event: event(3, 'https://cdn.example/a.mp3') }]);
    // The same callback again (a replay, or the service's retry of one taken in) changes nothing.
    expect(await h.post(sealed)).toBe(409);
    expect(h.accepted).toHaveLength(1);
  });

  it('refuses forged, stale, unknown-token, off-route and oversized callbacks without asking the jobs', async () => {
    const h = await start();
    // Sealed with other credentials: the signature does not verify with the connection's.
    expect(await h.post(sealWebhook(event(3, 'https://evil.example/x'), other, NOW))).toBe(401);
    // A valid envelope whose encrypted part was swapped for another's.
    const a = sealWebhook(event(3, 'https://cdn.example/a'), credentials, NOW, '1');
    const b = sealWebhook(event(4), credentials, NOW, '2');
    expect(await h.post({ ...a, dataEncrypt: b.dataEncrypt })).toBe(401);
    // An old callback (or one dated ahead) cannot be replayed after its signature is forgotten.
    expect(await h.post(sealWebhook(event(3), credentials, NOW - 16 * 60_000))).toBe(401);
    expect(await h.post(sealWebhook(event(3), credentials, NOW + 16 * 60_000))).toBe(401);
    expect(await h.post(sealWebhook(event(3), credentials, NOW), { token: 'B'.repeat(43) })).toBe(404);
    expect(await h.post(sealWebhook(event(3), credentials, NOW), { token: 'short' })).toBe(404);
    expect(await h.post(sealWebhook(event(3), credentials, NOW), { path: '/other' })).toBe(404);
    expect(await h.post(null, { method: 'GET' })).toBe(405);
    expect(await h.post(null, { raw: 'x'.repeat(5000) })).toBe(413);
    expect(await h.post(null, { raw: '{not json' })).toBe(400);
    expect(await h.post({ hello: 'world' })).toBe(401);
    expect(h.accepted).toEqual([]);
    // Logged: a few lines a minute, never the token, the body or a secret.
    const logged = JSON.stringify(h.lines);
    for (const secret of [TOKEN, credentials.clientSecret, credentials.clientId, a.dataEncrypt, a.signature, 'evil'])
      expect(logged).not.toContain(secret);
    expect(h.lines.filter((l) => l.message === 'callback refused')).toHaveLength(5);
  });

  it('asks for a callback again while its job is not answered, and refuses one naming another job', async () => {
    const h = await start();
    const early = sealWebhook(event(2), credentials, NOW, '7');
    h.answer.next = 'not-yet';
    expect(await h.post(early)).toBe(503);
    // The service's retry of the same callback is taken in once the job can take it.
    h.answer.next = 'unchanged';
    expect(await h.post(early)).toBe(200);
    h.answer.next = 'mismatch';
    const wrong = sealWebhook({ ...event(3), _id: 'remote-2' }, credentials, NOW, '8');
    expect(await h.post(wrong)).toBe(409);
    expect(await h.post(wrong)).toBe(409);
    expect(h.accepted).toHaveLength(3);
  });
});
