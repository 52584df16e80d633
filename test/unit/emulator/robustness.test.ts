import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ENDPOINTS } from '@common/api';
import { JOB_KINDS, JOB_KIND_REGISTRY } from '@common/jobs/kinds';
import type { RunningEmulator } from '../../../electron/emulator';
import { call, dataOf, probe, sample, start, until, SLOW } from './harness';

/** The error fetch gives for a request sent on a pooled connection that the closed server had ended. */
const closedByOldServer = (error: unknown): boolean => {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return error instanceof TypeError && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE');
};

const post = (em: RunningEmulator, path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${em.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': em.apiKey, 'content-type': 'application/json', ...headers },
    body,
  });

describe('sandbox under bad requests', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  beforeAll(async () => {
    em = await start();
  }, SLOW);
  afterAll(() => em.close());

  it('answers malformed JSON, wrong types, wrong content types and oversized bodies with clear errors', async () => {
    const bad = await post(em, API_PATHS.audioCreate, '{"input_text": ');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 1003, msg: expect.stringContaining('not valid JSON') });
    const array = await post(em, API_PATHS.audioCreate, '[1,2]');
    expect(await array.json()).toMatchObject({ code: 1003, msg: expect.stringContaining('JSON object') });
    const text = await post(em, API_PATHS.audioCreate, 'hello', { 'content-type': 'text/plain' });
    expect(await text.json()).toMatchObject({ code: 1003, msg: expect.stringContaining('application/json') });
    const huge = await post(em, API_PATHS.detectFaces, JSON.stringify({ img: 'A'.repeat(21 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({
      error_code: 1,
      code: 1003,
      error_msg: expect.stringContaining('larger than'),
    });
    expect(await call(em, 'audioCreate', { input_text: ['not', 'text'], voice_id: 'sandbox_ava' })).toMatchObject({
      code: 1003,
      msg: expect.stringContaining('input_text'),
    });
    const missing = await fetch(`${em.url}/api/open/v3/nothing/here`, { headers: { 'x-api-key': em.apiKey } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 1008 });
    // Still serving after all of that.
    expect((await call(em, 'voiceList', {})).code).toBe(1000);
  });

  it('serves the create of every job kind of the registry: an empty body is refused by its schema, not unknown', async () => {
    for (const kind of JOB_KINDS) {
      const path = ENDPOINTS[JOB_KIND_REGISTRY[kind].createEndpoint].path;
      const answer = await post(em, path, '{}');
      const body = (await answer.json()) as { code: number; msg: string };
      expect(body.msg, `the sandbox does not serve ${path}, the create of the job kind "${kind}"`).not.toMatch(
        /No such endpoint/,
      );
      expect(body, kind).toMatchObject({ code: 1003 });
    }
  });

  it('does not leave a job stuck when its media is unreachable', async () => {
    const created = dataOf(
      await call(em, 'audioClone', { input_text: 'x', rate: '50%', voice_url: 'http://127.0.0.1:9/nothing.wav' }),
    );
    const done = dataOf(
      await until(
        () => call(em, 'audioInfo', { audio_model_id: created._id }),
        (r) => dataOf(r).status >= 3,
      ),
    );
    expect(done.status).toBe(4);
    expect(String((done as Record<string, unknown>).error_reasons)).toContain('voice_url could not be downloaded');
  });

  it('injects HTTP 503s, 1005 answers, dropped connections and latency on demand', async () => {
    em.setFaults({ http5xxRate: 1 });
    const res = await fetch(`${em.url}${API_PATHS.voiceList}`, { headers: { 'x-api-key': em.apiKey } });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('text/html');
    // Result files stay reachable while the API misbehaves.
    expect((await fetch(sample(em, 'sandbox-face.png'))).status).toBe(200);
    // A counted 1005: every other request is answered "too frequent", at any pace.
    em.setFaults({ http5xxRate: 0, tooFrequentRate: 0.5 });
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await call(em, 'voiceList', {})).code);
    expect(answers).toEqual([1000, 1005, 1000, 1005]);
    em.setFaults({ tooFrequentRate: 0, dropRate: 1 });
    await expect(fetch(`${em.url}${API_PATHS.voiceList}`, { headers: { 'x-api-key': em.apiKey } })).rejects.toThrow();
    em.setFaults({ dropRate: 0, latencyMs: 300 });
    const t0 = Date.now();
    expect((await call(em, 'voiceList', {})).code).toBe(1000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    em.setFaults({ latencyMs: 0 });
  });

  it('changes faults and credits through the control routes (authenticated)', async () => {
    const denied = await post(em, '/__sandbox/credits', JSON.stringify({ credits: 5 }), { 'x-api-key': 'wrong' });
    expect(await denied.json()).toMatchObject({ code: 1101 });
    const ok = await post(em, '/__sandbox/credits', JSON.stringify({ credits: 5 }));
    expect(await ok.json()).toMatchObject({ code: 1000, data: { credits: 5 } });
    expect(em.credits()).toBe(5);
    const bad = await post(em, '/__sandbox/faults', JSON.stringify({ failRate: 3 }));
    expect(await bad.json()).toMatchObject({ code: 1003, msg: expect.stringContaining('failRate') });
    em.setCredits(1000);
  });
});

describe("the sandbox's hold on jobs (a test's control)", { timeout: SLOW }, () => {
  it('keeps every job at processing until it is let go, then ends them', async () => {
    const em = await start({ jobSeconds: 0.2 });
    try {
      const held = await post(em, '/__sandbox/faults', JSON.stringify({ holdJobs: true }));
      expect(await held.json()).toMatchObject({ code: 1000, data: { holdJobs: true } });
      const job = dataOf(await call(em, 'audioCreate', { input_text: 'Held.', voice_id: 'sandbox_ava' }));
      // Processing, and still so after two more polls (each waits past the job's 0.2 s).
      for (let i = 0; i < 3; i += 1) {
        const seen = dataOf(
          await until(
            () => call(em, 'audioInfo', { audio_model_id: job._id }),
            (r) => dataOf(r).status === 2,
          ),
        );
        expect(seen.status).toBe(2);
        await new Promise((r) => setTimeout(r, 300));
      }
      await post(em, '/__sandbox/faults', JSON.stringify({ holdJobs: false }));
      const ended = await until(
        () => call(em, 'audioInfo', { audio_model_id: job._id }),
        (r) => dataOf(r).status === 3,
      );
      expect(dataOf(ended).status).toBe(3);
    } finally {
      await em.close();
    }
  });
});

describe('sandbox persistence and expiry', { timeout: SLOW }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sandbox-persist-'));
  }, SLOW);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps records, balances and results across a restart and resumes jobs in flight', async () => {
    let em = await start({ dataDir, jobSeconds: 0.2 });
    const port = Number(new URL(em.url).port);
    const done = dataOf(
      await call(em, 'audioCreate', { input_text: 'Kept across restarts.', voice_id: 'sandbox_ava' }),
    );
    const finished = dataOf(
      await until(
        () => call(em, 'audioInfo', { audio_model_id: done._id }),
        (r) => dataOf(r).status === 3,
      ),
    );
    const inFlight = dataOf(
      await call(em, 'audioCreate', { input_text: 'Still to be spoken.', voice_id: 'sandbox_ava' }),
    );
    expect(inFlight.status).toBeLessThan(3);
    const credits = em.credits();
    // Closed before the job's first timer (a quarter of 0.2 s) can fire, so it ends only if the next
    // start picks it up again; asking its state after the restart would race with that start.
    await em.close();

    em = await start({ dataDir, port, jobSeconds: 0.2 });
    try {
      expect(em.credits()).toBe(credits);
      // This process's HTTP client may still pool a connection to the old server on the same port, and
      // a request sent on it is reset: read again once, as the studio's client retries a read. Only that
      // reset is let through; any other error fails the test.
      const again = dataOf(
        await call(em, 'audioInfo', { audio_model_id: done._id }).catch((error: unknown) => {
          if (!closedByOldServer(error)) throw error;
          return call(em, 'audioInfo', { audio_model_id: done._id });
        }),
      );
      expect(again).toMatchObject({ status: 3, url: finished.url });
      expect((await probe(again.url)).hasAudio).toBe(true);
      const b = dataOf(
        await until(
          () => call(em, 'audioInfo', { audio_model_id: inFlight._id }),
          (r) => dataOf(r).status === 3,
        ),
      );
      expect((await probe(b.url)).hasAudio).toBe(true);
    } finally {
      await em.close();
    }
  });

  it('stops serving results after their lifetime', async () => {
    let clock = Date.now();
    const em = await start({ dataDir, now: () => clock });
    try {
      const created = dataOf(await call(em, 'audioCreate', { input_text: 'Short lived.', voice_id: 'sandbox_ava' }));
      const audio = dataOf(
        await until(
          () => call(em, 'audioInfo', { audio_model_id: created._id }),
          (r) => dataOf(r).status === 3,
        ),
      );
      expect((await fetch(audio.url)).status).toBe(200);
      clock += 7 * 24 * 3600 * 1000 + 1;
      const gone = await fetch(audio.url);
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ code: 1014 });
    } finally {
      await em.close();
    }
  });
});

describe('sandbox without espeak-ng', { timeout: SLOW }, () => {
  it('fails speech jobs with a reason that says what is missing', async () => {
    const em = await start({ espeakPath: '/nonexistent/espeak-ng' });
    try {
      const created = dataOf(await call(em, 'audioCreate', { input_text: 'Silence.', voice_id: 'sandbox_ava' }));
      const r = dataOf(
        await until(
          () => call(em, 'audioInfo', { audio_model_id: created._id }),
          (x) => dataOf(x).status >= 3,
        ),
      );
      expect(r.status).toBe(4);
      expect(String((r as Record<string, unknown>).error_reasons)).toContain('espeak-ng is not installed');
    } finally {
      await em.close();
    }
  });
});
