// Runs every check `npm test` promises (types, lint, unit, component and end-to-end tests) and ends
// with one plain `N passed, N failed` line that counts every test and check that ran.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const artifacts = join(root, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

let passed = 0;
let failed = 0;

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
const chromiumFound = () =>
  [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => p && executable(p));
const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, name)));
const systemFfmpegFound = () => onPath('ffmpeg');

/**
 * The end-to-end tests drive Debian's Chromium (no browser is ever downloaded), and the media tests run
 * with the npm ffmpeg 4.1 and, where the system has one, a current ffmpeg too. The sandbox speaks every
 * text-to-speech job with espeak-ng: the system's takes about 0.05 s of CPU a sentence, the npm
 * WebAssembly build about 0.35 s, and the suite speaks hundreds (the npm build keeps its own tests).
 * The row queue's tests need Redis (Debian's redis-server; the apt package starts no service by itself).
 * None of these comes from npm, so on Debian or Ubuntu the missing ones are installed here in one
 * apt-get call when this user may. Without Chromium the run stops at once naming the command; without
 * a system ffmpeg or espeak-ng it goes on with the npm ones, and says so.
 */
function ensureSystemPackages({ needChromium }) {
  const wanted = [];
  if (needChromium && !chromiumFound()) wanted.push('chromium', 'fonts-dejavu-core');
  if (!systemFfmpegFound()) wanted.push('ffmpeg');
  if (!onPath('espeak-ng')) wanted.push('espeak-ng');
  // The row queue's tests run BullMQ against a real Redis (test/redis-server.ts starts it on a loopback port).
  if (!onPath('redis-server')) wanted.push('redis-server');
  if (wanted.length === 0) return;
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (process.platform === 'linux' && existsSync('/usr/bin/apt-get') && (asRoot || sudo)) {
    console.log(`Installing Debian's ${wanted.join(', ')} with apt-get for the tests.`);
    const apt = (args) =>
      spawnSync(asRoot ? 'apt-get' : 'sudo', [...(asRoot ? [] : ['-n', 'apt-get']), ...args], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      }).status === 0;
    if (apt(['update', '-qq'])) apt(['install', '-y', '-qq', '--no-install-recommends', ...wanted]);
  }
  if (!systemFfmpegFound())
    console.log(
      'No system ffmpeg: the media tests run with the npm ffmpeg only (`sudo apt-get install -y ffmpeg` adds a current one).',
    );
  if (!onPath('redis-server'))
    console.log(
      "No redis-server: the row queue's tests will fail naming it (`sudo apt-get install -y redis-server` adds it).",
    );
  if (needChromium && !chromiumFound()) {
    console.log(
      'The end-to-end tests need Chromium: run `sudo apt-get install -y chromium fonts-dejavu-core` (or set CHROMIUM_PATH to a Chromium), then `npm test` again.',
    );
    process.exit(1);
  }
}
const extraArgs = process.argv.slice(2);
const onlyUnit = extraArgs.includes('--project') && !extraArgs.includes('e2e');
ensureSystemPackages({ needChromium: !onlyUnit });

const show = (command, args) => [command, ...args].map((a) => a.replace(root + '/', '')).join(' ');

/**
 * Runs a check beside the tests, keeping its output to print whole once it is done. It runs at the
 * ordinary priority: at the lowest one, two busy processes beside the run left the type check and lint
 * 19 CPU-seconds in 12 minutes, so the run's end depended on when the machine's other work stopped.
 */
function background(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error}\n`)));
    child.on('close', (code) =>
      resolve({ label, command, args, ok: code === 0, output: Buffer.concat(chunks).toString() }),
    );
  });
}

// Type checking, lint and the format check are single-threaded and need nothing from the tests: all four
// start together, and the checks' output is printed whole after the tests' own.
const checks = Promise.all([
  background('types', bin('vue-tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  background('lint', bin('eslint'), ['.', '--max-warnings=0']),
  background('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
]);

const report = join(artifacts, 'vitest-report.json');
rmSync(report, { force: true });
const extra = process.argv.slice(2);
const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra];
console.log(`\n── tests: ${show(bin('vitest'), vitestArgs)}`);
const testsOk = await new Promise((resolve) => {
  const child = spawn(bin('vitest'), vitestArgs, { cwd: root, stdio: 'inherit' });
  child.on('error', () => resolve(false));
  child.on('close', (code) => resolve(code === 0));
});
for (const check of await checks) {
  console.log(`\n── ${check.label}: ${show(check.command, check.args)} (${check.ok ? 'ok' : 'FAILED'})`);
  if (check.output.trim()) process.stdout.write(check.output.endsWith('\n') ? check.output : `${check.output}\n`);
  if (check.ok) passed += 1;
  else failed += 1;
}
let skipped = [];
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed += summary.numPassedTests;
  failed += summary.numFailedTests;
  // A suite that failed to load has no tests to count; count it so the run cannot look green.
  failed += summary.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
  skipped = summary.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'skipped' || test.status === 'pending' || test.status === 'todo')
      .map((test) => ({ file: file.name.replace(root + '/', ''), name: test.fullName, reason: test.meta?.skipReason })),
  );
} else {
  failed += 1;
}
// A test is skipped only where this machine lacks what it needs; each says what that is.
if (skipped.length > 0) {
  console.log('\n── skipped on this machine:');
  for (const test of skipped) console.log(`  ${test.file} › ${test.name}: ${test.reason ?? 'no reason given'}`);
}
if (!testsOk && failed === 0) failed = 1;

console.log(`\n${passed} passed, ${failed} failed${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
