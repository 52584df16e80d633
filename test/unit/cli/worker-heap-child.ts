// A process that keeps about 100 MB live and churns objects that live long enough to reach the old
// space, as a worker's rows do; it prints the old space's largest size and what was live at the end.
// Then it lets all that go, fills the old space with small objects, keeps one in forty of them (as a
// worker lets go of the rows it has handed over, while others stay), and prints the old space after a
// full collection against what stays live. With `near` it first sets the worker's heap flags.
import { getHeapSpaceStatistics } from 'node:v8';
import { keepHeapNearLive } from '../../../electron/cli/worker-heap';

if (process.argv[2] === 'near') keepHeapNearLive([]);
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const kept: object[] = [];
for (let i = 0; i < 300_000; i++) kept.push({ text: `kept ${i} `.padEnd(100, '.') });
const ring: object[] = new Array(100_000);
let largest = 0;
for (let turn = 0; turn < 2_500; turn++) {
  for (let i = 0; i < 1_000; i++)
    ring[(turn * 1_000 + i) % ring.length] = { text: `churn ${i}`.padEnd(60, '.'), n: [i] };
  if (turn % 10 === 0) largest = Math.max(largest, oldSpace()?.space_size ?? 0);
}
gc();
const live = oldSpace()?.space_used_size ?? 0;
const count = kept.length + ring.length;
kept.length = 0;
ring.fill(undefined as unknown as object);
// One in forty stays, spread over every page the others filled.
let rows: object[] = [];
for (let i = 0; i < 2_000_000; i++) rows.push({ i, text: `row ${i}`, steps: [i] });
gc();
rows = rows.filter((_, i) => i % 40 === 0);
gc();
gc();
const after = { size: oldSpace()?.space_size ?? 0, used: oldSpace()?.space_used_size ?? 0, kept: rows.length };
process.stdout.write(JSON.stringify({ kept: count, largest, live, after }));
