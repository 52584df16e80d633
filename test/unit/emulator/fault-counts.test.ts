import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '@common/api';
import type { RunningEmulator } from '../../../electron/emulator';
import { FaultCounter } from '../../../electron/emulator/faults';
import { start, SLOW } from './harness';

/** Which of `count` occasions fail at `rate` (1-based). */
function failing(counter: FaultCounter, rate: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => i + 1).filter(() => counter.next(rate));
}

describe('counted fault injection', () => {
  it('fails exactly the occasions where the running sum of the rate reaches a whole number', () => {
    expect(failing(new FaultCounter(), 0.25, 12)).toEqual([4, 8, 12]);
    expect(failing(new FaultCounter(), 0.08, 30)).toEqual([13, 25]);
    // 0.1 added ten times is 0.9999999999999999 in floating point; it still means the tenth.
    expect(failing(new FaultCounter(), 0.1, 20)).toEqual([10, 20]);
    expect(failing(new FaultCounter(), 1, 3)).toEqual([1, 2, 3]);
    expect(failing(new FaultCounter(), 0, 50)).toEqual([]);
  });

  it('carries its count across a change of rate, and a rate of 0 counts nothing', () => {
    const counter = new FaultCounter();
    expect(failing(counter, 0.5, 1)).toEqual([]);
    expect(failing(counter, 0, 5)).toEqual([]);
    expect(failing(counter, 0.5, 1)).toEqual([1]);
  });
});

describe('the sandbox with counted faults', { timeout: SLOW }, () => {
  let em: RunningEmulator;
  beforeAll(async () => {
    em = await start();
  }, SLOW);
  afterAll(() => em.close());

  const voiceList = () =>
    fetch(`${em.url}${API_PATHS.voiceList}`, { headers: { 'x-api-key': em.apiKey } }).then(
      (response) => (response.status === 503 ? '503' : 'ok'),
      () => 'dropped',
    );

  it('drops and refuses the same requests of a sequence every run', async () => {
    em.setFaults({ dropRate: 0.25, http5xxRate: 0.5 });
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i += 1) outcomes.push(await voiceList());
    em.setFaults({ dropRate: 0, http5xxRate: 0 });
    // Drops count every request; 503s count only the requests that were not dropped.
    expect(outcomes).toEqual(['ok', '503', 'ok', 'dropped', '503', 'ok', '503', 'dropped']);
  });
});
