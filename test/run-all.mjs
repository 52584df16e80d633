// Runs every check `npm test` promises (types, lint, unit, component and end-to-end tests) and ends
// with one plain `N passed, N failed` line that counts every test and check that ran.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const artifacts = join(root, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

let passed = 0;
let failed = 0;

function step(label, command, args) {
  console.log(`\n── ${label}: ${[command, ...args].map((a) => a.replace(root + '/', '')).join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

for (const [label, command, args] of [
  ['types', bin('vue-tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
]) {
  if (step(label, command, args)) passed += 1;
  else failed += 1;
}

const report = join(artifacts, 'vitest-report.json');
rmSync(report, { force: true });
const extra = process.argv.slice(2);
const testsOk = step('tests', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed += summary.numPassedTests;
  failed += summary.numFailedTests;
  // A suite that failed to load has no tests to count; count it so the run cannot look green.
  failed += summary.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} else {
  failed += 1;
}
if (!testsOk && failed === 0) failed = 1;

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
