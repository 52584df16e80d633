// A job's polls hear from its connection's limiter whether turns are scarce: the job timing then wakes
// the first poll where the job has most likely ended (job-timing.test.ts), so polls leave the account's
// turns to creates while its rate binds.
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/services/client';
import type { RequestLimiter } from '../../../electron/services/client/limiter';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { MemoryLedgerStorage } from '../../../electron/services/jobs/ledger';
import type { PollingStrategy } from '../../../electron/services/jobs/polling-strategy';
import { FakeService, manualTime, tts } from './fake-service';
import { until } from '../../wait';

const NOW = 1_700_000_000_000;

describe('polls while the account rate binds', () => {
  it('are hinted with whether the limiter of their connection says turns are scarce', async () => {
    let scarce = true;
    const limiter: RequestLimiter = {
      turn: async () => NOW,
      answered: () => undefined,
      refused: async () => undefined,
      scarce: () => scarce,
    };
    const time = manualTime(NOW);
    const service = new FakeService(time.clock.now);
    const client = new ServiceClient({
      baseUrl: 'http://fake.test',
      credentials: { kind: 'api-key', apiKey: 'fake-key-123456' },
      fetch: service.fetch,
      sleep: async () => undefined,
      limiter,
    });
    const told: (boolean | undefined)[] = [];
    const polling: PollingStrategy = {
      follow: () => [],
      finished: () => [],
      hint: (_job, _now, turnsScarce) => void told.push(turnsScarce),
    };
    // Timers run when the test says, the clock moved past them: each poll is one step of the test.
    const engine = new JobEngine({
      storage: new MemoryLedgerStorage(),
      connections: { active: async () => ({ id: 'c1', name: 'Fake', webhookUrl: null }), client: async () => client },
      ...time,
      random: () => 0.5,
      polling,
    });
    engine.start();
    await engine.submit({ kind: 'tts', body: tts, confirmation: { by: 'script' } });
    const polls = () => service.count('/api/open/v3/audio/infobymodelid');
    // Before its first poll nothing says how the connection's turns go.
    expect(told.at(-1)).toBeUndefined();
    const fire = () => time.fire(30_000);
    fire();
    await until('the first poll answered', () => polls() === 1 && told.length > 1);
    expect(told.at(-1)).toBe(true);
    scarce = false;
    fire();
    await until('the second poll answered', () => polls() === 2 && told.at(-1) === false);
    engine.stop();
  });
});
