// `npm run bench`: runs every test/bench/*.bench.ts in turn (or those named on the command line).
// Each bench prints its own figures as ratios against a baseline it measures in the same run; what it
// printed replaces its block in docs/performance.md when it succeeds.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { provideMediaTools } from '../media-tools-env';
import { PERFORMANCE_DOC, capturingLog, describeMachine, figuresBlock, withFigures } from './figures-doc';

const dir = import.meta.dirname;
const docPath = join(dir, '..', '..', PERFORMANCE_DOC);
// On a machine without ffmpeg on PATH, the benches make and measure media with the npm packages' own.
provideMediaTools(join(dir, '..', '..'));
const wanted = process.argv.slice(2);
/** Benches that take an hour or more (scale: 10,000 rows with 1, 2 and 4 workers, and 4 again with callbacks, at 40 requests/s) run only when named. */
const ONLY_WHEN_NAMED = new Set(['scale.bench.ts']);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => (wanted.length === 0 ? !ONLY_WHEN_NAMED.has(f) : wanted.some((w) => f.startsWith(w))))
  .sort();

if (files.length === 0) {
  console.error(`No benchmarks matched ${wanted.join(', ') || '(any)'} in ${dir}`);
  process.exit(1);
}

/**
 * Between two benches: the previous one's writes flushed and a pause, so the next does not start on a
 * machine still busy with them (its figures then measured the previous bench as much as its own).
 */
const QUIET_BETWEEN_MS = 15_000;

let failures = 0;
for (const [index, file] of files.entries()) {
  if (index > 0) {
    spawnSync('sync');
    await new Promise((resolve) => setTimeout(resolve, QUIET_BETWEEN_MS));
  }
  console.log(`\n=== ${file}`);
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
      run?: () => Promise<void>;
      /** The doc block a run's figures go in, when its settings make it another measurement. */
      figuresName?: () => string;
    };
    const run = mod.run;
    if (typeof run !== 'function') throw new Error(`${file} exports no run()`);
    const startedAt = new Date();
    const machine = describeMachine();
    const lines = await capturingLog(run);
    const bench = mod.figuresName?.() ?? file.replace(/\.bench\.ts$/, '');
    writeFileSync(docPath, withFigures(readFileSync(docPath, 'utf8'), bench, figuresBlock(lines, startedAt, machine)));
  } catch (error) {
    failures += 1;
    console.error(`${file} failed:`, error);
  }
}
process.exit(failures === 0 ? 0 : 1);
