// Writes test/file-durations.json from a run's vitest JSON report (test-artifacts/vitest-report.json by
// default): the seconds each test file took, for the files that took at least LONG_S. The sequencer
// (test/sequencer.ts) starts those files first on a machine that has no results of its own yet (a
// fresh CI machine), where vitest would otherwise order files by their size in bytes.
// Usage: node test/tools/file-durations.mjs [report.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const LONG_S = 20;
const root = join(import.meta.dirname, '..', '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? join(root, 'test-artifacts', 'vitest-report.json'), 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name).replace(/^.*?(?=test\/)/, ''), (file.endTime - file.startTime) / 1000])
    .filter(([, seconds]) => seconds >= LONG_S)
    .sort(([, a], [, b]) => b - a)
    .map(([name, seconds]) => [name, Math.round(seconds)]),
);
writeFileSync(join(root, 'test', 'file-durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files of at least ${LONG_S} s written to test/file-durations.json`);
