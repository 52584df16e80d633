// A fixed amount of the kind of work a row costs (JSON, hashing, objects in maps, strings, a sort), run
// in its own process before and after each scale run: its CPU seconds say how fast this machine was at
// the time, so CPU figures of runs days apart, or of a run that shared the machine, can be compared as
// ratios to it (one run's 93 ms a row and another's 66 were a slower machine as much as a change).
import { execFileSync } from 'node:child_process';

const WORK = `
const { createHash } = require('node:crypto');
const start = process.cpuUsage();
let kept = 0;
for (let round = 0; round < 60; round++) {
  const rows = new Map();
  for (let i = 0; i < 4000; i++) {
    const record = { id: 'job-' + round + '-' + i, kind: i % 3 ? 'tts' : 'avatar-video', state: 'done', cost: i % 7, text: 'Hello Name' + i };
    const line = JSON.stringify(record);
    rows.set(record.id, JSON.parse(line));
    if (i % 8 === 0) kept += createHash('sha256').update(line).digest('hex').length;
  }
  kept += [...rows.values()].sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id)).filter((r) => /Name\\d+7$/.test(r.text)).length;
}
const used = process.cpuUsage(start);
// Its results are used, so that no part of the work can be left out as unused.
if (kept === 0) throw new Error('the reference work found nothing');
process.stdout.write(String((used.user + used.system) / 1e6));
`;

/** CPU seconds the reference work took in a fresh node process: the median of three, on this machine as it is now. */
export function referenceCpuSeconds(): number {
  const each = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ['-e', WORK], { encoding: 'utf8' })));
  return each.sort((a, b) => a - b)[1];
}
