// A process that keeps about 100 MB live and churns objects that live long enough to reach the old
// space, as a worker's rows do; it prints the old space's largest size and what was live at the end.
// With `near` it first sets the worker's heap growing factor.
import { getHeapSpaceStatistics } from 'node:v8';
import { keepHeapNearLive } from '../../../electron/cli/worker-heap';

if (process.argv[2] === 'near') keepHeapNearLive([]);
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
const kept: object[] = [];
for (let i = 0; i < 300_000; i++) kept.push({ text: `kept ${i} `.padEnd(100, '.') });
const ring: object[] = new Array(100_000);
let largest = 0;
for (let turn = 0; turn < 2_500; turn++) {
  for (let i = 0; i < 1_000; i++)
    ring[(turn * 1_000 + i) % ring.length] = { text: `churn ${i}`.padEnd(60, '.'), n: [i] };
  if (turn % 10 === 0) largest = Math.max(largest, oldSpace()?.space_size ?? 0);
}
(globalThis as { gc?: () => void }).gc?.();
const live = oldSpace()?.space_used_size ?? 0;
process.stdout.write(JSON.stringify({ kept: kept.length + ring.length, largest, live }));
