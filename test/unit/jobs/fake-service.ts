import type { FetchLike } from '../../../electron/services/client';
import { ServiceClient, type ServiceClientOptions } from '../../../electron/services/client';
import type { EngineConnections } from '../../../electron/services/jobs/engine';

export interface FakeJob {
  id: string;
  kind: 'audio' | 'video';
  status: number;
  body: Record<string, unknown>;
}

/**
 * A small in-memory stand-in for the service: creates audio/video records, answers info lookups, and
 * lets a test move records between statuses or inject answers for the next requests.
 */
export class FakeService {
  readonly jobs = new Map<string, FakeJob>();
  readonly requests: { path: string; at: number; body: unknown }[] = [];
  /** Answers to use before the normal behaviour, matched by path prefix. */
  readonly injected: { path: string; reply: () => Response | Error }[] = [];
  onRequest?: (path: string) => void;
  inFlight = 0;
  maxInFlight = 0;
  private seq = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    this.requests.push({ path: url.pathname, at: this.now(), body });
    this.onRequest?.(url.pathname);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await Promise.resolve();
      const index = this.injected.findIndex((i) => url.pathname.startsWith(i.path));
      if (index >= 0) {
        const [hit] = this.injected.splice(index, 1);
        const reply = hit.reply();
        if (reply instanceof Error) throw reply;
        return reply;
      }
      return this.answer(url, body);
    } finally {
      this.inFlight -= 1;
    }
  };

  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  set(id: string, status: number): void {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no fake job ${id}`);
    job.status = status;
  }

  private answer(url: URL, body: Record<string, unknown>): Response {
    const ok = (data: unknown) => Response.json({ code: 1000, msg: 'ok', data });
    switch (url.pathname) {
      case '/api/open/v3/audio/create':
      case '/api/open/v3/audio/clone':
        return ok(this.audio(this.create('audio', body)));
      case '/api/open/v3/content/video/lipsync':
      case '/api/open/v3/avatar/createVideo':
      case '/api/open/v3/talkingavatar/create':
        return ok(this.video(this.create('video', body)));
      case '/api/open/v4/characterSwap/create': {
        const job = this.create('video', body);
        return ok({ _id: job.id, status: job.status });
      }
      case '/api/open/v3/audio/infobymodelid': {
        const job = this.jobs.get(url.searchParams.get('audio_model_id') ?? '');
        return job ? ok(this.audio(job)) : Response.json({ code: 1008, msg: 'not found' });
      }
      case '/api/open/v3/content/video/infobymodelid': {
        const job = this.jobs.get(url.searchParams.get('video_model_id') ?? '');
        return job ? ok(this.video(job)) : Response.json({ code: 1008, msg: 'not found' });
      }
      case '/api/open/v3/voice/list':
        return ok([]);
      default:
        return Response.json({ code: 1008, msg: `no route ${url.pathname}` }, { status: 404 });
    }
  }

  private create(kind: FakeJob['kind'], body: Record<string, unknown>): FakeJob {
    this.seq += 1;
    const job: FakeJob = { id: `r${this.seq}`, kind, status: 1, body };
    this.jobs.set(job.id, job);
    return job;
  }

  private audio(job: FakeJob) {
    return {
      _id: job.id,
      create_time: 1,
      uid: 1,
      from: 1,
      input_text: String(job.body.input_text ?? ''),
      rate: '50%',
      voice_model_id: 'v',
      url: job.status === 3 ? `https://files.test/${job.id}.mp3` : '',
      status: job.status,
    };
  }

  private video(job: FakeJob) {
    return {
      _id: job.id,
      video_status: job.status,
      video: job.status === 3 ? `https://files.test/${job.id}.mp4` : '',
      ...(job.status === 4 ? { faceswap_fail_reason: 'face not found' } : {}),
      ...(job.status === 3 ? { deduction_duration: 12 } : {}),
    };
  }
}

/** `options` overrides the client's clock and sleep (a bench in virtual time); by default it never waits. */
export function fakeConnections(
  service: Pick<FakeService, 'fetch'>,
  webhookUrl: string | null = null,
  options: Pick<ServiceClientOptions, 'clock' | 'sleep'> = {},
): EngineConnections {
  const client = new ServiceClient({
    baseUrl: 'http://fake.test',
    credentials: { kind: 'api-key', apiKey: 'fake-key-123456' },
    fetch: service.fetch,
    sleep: async () => undefined,
    ...options,
  });
  return {
    active: async () => ({ id: 'c1', name: 'Fake', webhookUrl }),
    client: async (id) => {
      if (id !== 'c1') throw new Error(`unknown connection ${id}`);
      return client;
    },
  };
}

export const tts = { input_text: 'Hello from the studio', voice_id: 'voice-1', rate: '50%' };

/** A clock and timers that move only when the test says: `fire` moves the clock by `ms` and runs what was due. */
export function manualTime(start: number) {
  let now = start;
  const due: (() => void)[] = [];
  return {
    clock: { now: () => now },
    timers: { setTimeout: (run: () => void) => due.push(run), clearTimeout: () => undefined },
    fire(ms: number) {
      now += ms;
      for (const run of due.splice(0)) run();
    },
  };
}
