import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RecordStatus } from '@common/api';
import { SandboxJobRunner, type EngineDeps } from '../../../electron/emulator/jobs/engine';
import { WebhookSender } from '../../../electron/emulator/jobs/webhooks';
import { resolveOptions } from '../../../electron/emulator/options';
import type { JobRecord } from '../../../electron/emulator/state/types';
import { start, SLOW } from './harness';
import { sandboxJob } from './sandbox-job';

function job(id: string, webhook = 'https://hooks.example.com/x'): JobRecord {
  return sandboxJob(id, { webhook });
}

/** An engine over in-memory fakes; `over` replaces the parts a test breaks. */
function engine(
  over: Partial<EngineDeps>,
  logged: string[],
): { engine: SandboxJobRunner; settled: (j: JobRecord) => Promise<void> } {
  const changes: (() => void)[] = [];
  const deps: EngineDeps = {
    store: { state: { jobs: {} }, changed: () => changes.splice(0).forEach((f) => f()) } as never,
    files: {
      register: () => undefined,
      resultPath: () => '/nonexistent',
      resultUrl: (f: string) => `http://127.0.0.1:1/files/${f}`,
    } as never,
    accounts: { refund: () => undefined, account: {} } as never,
    webhooks: { send: () => undefined } as never,
    processors: { tts: async () => ({ file: 'out.mp3' }) } as never,
    webhookType: () => 'audio',
    sealWebhook: () => ({ signature: 'a'.repeat(40), dataEncrypt: 'x', timestamp: 0, nonce: '1' }),
    jobSeconds: 0.02,
    failJob: () => false,
    now: Date.now,
    log: (line) => logged.push(line),
    makeWorkDir: async () => '',
    removeWorkDir: async () => undefined,
    ...over,
  };
  // Resolves once the job has a final status and its callback outcome (if any) is on the record.
  const settled = (j: JobRecord) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (j.status >= RecordStatus.Completed && (!j.webhook || j.webhookLog.lastError || j.webhookLog.delivered))
          resolve();
        else changes.push(check);
      };
      changes.push(check);
    });
  return { engine: new SandboxJobRunner(deps), settled };
}

describe('sandbox options that cannot work', { timeout: SLOW }, () => {
  it('refuses a client secret or client id that cannot sign webhooks, naming the reason', async () => {
    expect(() => resolveOptions({ clientSecret: 'conf-secret' })).toThrow(
      /client secret is 11 bytes; webhook encryption needs 16, 24 or 32/,
    );
    expect(() => resolveOptions({ clientSecret: 'k'.repeat(32), clientId: 'short-id' })).toThrow(
      /client id is 8 bytes/,
    );
    expect(() => resolveOptions({ clientSecret: 'k'.repeat(24), clientId: 'c'.repeat(16) })).not.toThrow();
    await expect(start({ clientSecret: 'conf-secret' })).rejects.toThrow(/11 bytes/);
  });

  it('npm run emulator with an 11-byte secret exits 2 at start with the reason', async () => {
    const child = spawn(
      'node_modules/.bin/tsx',
      ['electron/emulator/cli.ts', '--port', '0', '--client-secret', 'conf-secret'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // Had it started, it would run until stopped: stop it so the failure shows at once.
    child.stdout.on('data', (c: Buffer) => c.toString().includes('listening') && child.kill());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('The client secret is 11 bytes; webhook encryption needs 16, 24 or 32');
  });
});

describe('a fault inside a job, a timer or a webhook delivery', () => {
  it('a callback that cannot be sealed is a failed delivery on the job, which still completes', async () => {
    const logged: string[] = [];
    const { engine: e, settled } = engine(
      {
        sealWebhook: () => {
          throw new Error('seal broke');
        },
      },
      logged,
    );
    const j = job('seal');
    const done = settled(j);
    e.submit(j);
    await done;
    expect(j.status).toBe(RecordStatus.Completed);
    expect(j.webhookLog).toEqual({ attempts: 0, delivered: false, lastError: expect.stringContaining('seal broke') });
    expect(logged.join('\n')).toContain('seal broke');
    await e.close();
  });

  it('a throw in the start timer fails that job with the reason instead of ending the process', async () => {
    const logged: string[] = [];
    const { engine: e } = engine({}, logged);
    // Writing the record's new status throws (as a full disk would), inside the timer that starts the job.
    const j = job('timer', '');
    Object.defineProperty(j, 'status', {
      get: () => RecordStatus.Queueing,
      set: () => {
        throw new Error('disk full');
      },
      configurable: true,
    });
    const failed = new Promise<void>((resolve) => {
      const poll = () => (logged.some((l) => l.includes('disk full')) ? resolve() : setImmediate(poll));
      poll();
    });
    e.submit(j);
    await failed;
    expect(logged.find((l) => l.includes('disk full'))).toMatch(
      /job timer \(tts\): the sandbox failed while starting this job: disk full/,
    );
    await e.close();
  });

  it('a failure recording a delivery is logged, not an unhandled rejection', async () => {
    const logged: string[] = [];
    const sender = new WebhookSender(
      1,
      1,
      (l) => logged.push(l),
      async () => new Response('ok'),
    );
    sender.send('https://93.184.216.34/hook', 'job1', {}, () => {
      throw new Error('record write failed');
    });
    await sender.close(5000);
    expect(logged).toContain('webhook for job1: its outcome could not be recorded: record write failed');
  });
});
