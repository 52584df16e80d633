// The studio's records at a team's scale (issue 68): data folders of 1,000, 100,000 and 1,000,000
// finished campaign jobs in the old journal format. For each: the first start takes the journal into the
// records database (timed to its records open: the host gives its address at once and shows the page a
// bar meanwhile); then the next start to its records open and to a usable shell, the Library's first rows after the click, the longest main-thread task while sorting, filtering,
// searching, scrolling to the end and starting a download of everything shown, the host's resident memory
// and the page's heap; then `studio jobs list --json --limit 100`, and the whole list streamed with its
// peak resident memory. Every figure is also printed as a ratio to the 1,000-job folder of the same run.
// BENCH_RECORDS_SIZES=1000,20000 runs other sizes (the first is the baseline). Then the same Library
// figures while a 1,000-row campaign runs in the studio (records-busy.ts); BENCH_RECORDS_BUSY_ONLY=1
// runs that phase alone. Each folder also holds a saved copy of every finished video (a third of its jobs)
// in the old download queue, as an editor's folder does; BENCH_RECORDS_COPIES=0 leaves them out.
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureRendererBuilt } from '../../electron/web/build-renderer';
import { buildBundle, bundleIsStale } from '../../electron/launch/bundles.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from '../e2e/chromium';
import { folderWithJournal } from './records-folder';
import { measureLibrary, type LibraryFigures } from './records-library';
import { launchHost, residentMb, runCli, stopHost, type CliRun } from './records-processes';
import { runBusyPhase } from './records-busy';

const root = join(import.meta.dirname, '..', '..');
const SIZES = (process.env.BENCH_RECORDS_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const COPIES = process.env.BENCH_RECORDS_COPIES !== '0';

const AIMS = {
  nextStartS: 3,
  nextStartRatio: 1.5,
  firstRowsS: 1,
  longestTaskMs: 200,
  hostMb: 300,
  pageHeapMb: 150,
  importS: 120,
};

interface Figures {
  jobs: number;
  importS: number;
  writtenS: number;
  nextReadyS: number;
  library: LibraryFigures;
  hostMb: number;
  listFirst: CliRun;
  listAll: CliRun;
}

async function measureFolder(jobs: number): Promise<Figures> {
  const written = performance.now();
  const dataDir = await folderWithJournal(jobs, Date.now(), undefined, COPIES);
  const writtenS = (performance.now() - written) / 1000;
  try {
    // The first start after the update: the old journal is taken in before the host gives its address.
    const first = await launchHost(dataDir);
    await stopHost(first);
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
    try {
      const host = await launchHost(dataDir);
      try {
        const library = await measureLibrary(browser, host, jobs, join(dataDir, 'Saved'));
        const hostMb = residentMb(host.child.pid as number);
        return {
          jobs,
          importS: first.toReady,
          writtenS,
          nextReadyS: host.toReady,
          library,
          hostMb,
          ...(await listings(dataDir)),
        };
      } finally {
        await stopHost(host);
      }
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `jobs list` read from the database directly (no studio open on the folder). */
async function listings(dataDir: string): Promise<Pick<Figures, 'listFirst' | 'listAll'>> {
  const base = ['jobs', 'list', '--json', '--data-dir', dataDir];
  const listFirst = await runCli([...base, '--limit', '100']);
  const listAll = await runCli(base);
  for (const run of [listFirst, listAll])
    if (run.code !== 0) throw new Error(`studio jobs list exited with ${run.code}`);
  return { listFirst, listAll };
}

const ratio = (value: number, baseline: number) => (baseline > 0 ? `${(value / baseline).toFixed(2)}×` : '–');
const aim = (met: boolean) => (met ? 'met' : 'NOT met');

function report(all: Figures[]): void {
  const [base] = all;
  for (const f of all) {
    const l = f.library;
    const tasks = Object.entries(l.longestTaskMs)
      .map(([what, ms]) => `${what} ${ms} ms`)
      .join(', ');
    console.log(
      `\n${f.jobs.toLocaleString('en-US')} jobs${COPIES ? ', a saved copy of each finished video' : ''} (journal written in ${f.writtenS.toFixed(1)} s):`,
    );
    console.log(
      `  first start, taking the journal in: ${f.importS.toFixed(1)} s to its records open (${ratio(f.importS, base.importS)})`,
    );
    console.log(
      `  next start: records open ${f.nextReadyS.toFixed(2)} s (${ratio(f.nextReadyS, base.nextReadyS)}), usable shell ${l.shellS.toFixed(2)} s (${ratio(l.shellS, base.library.shellS)})`,
    );
    console.log(
      `  Library: first rows ${l.firstRowsS.toFixed(2)} s after the click (${ratio(l.firstRowsS, base.library.firstRowsS)}), its All tab counting every job`,
    );
    const download = typeof l.downloadAll === 'number' ? `${l.downloadAll} ms` : l.downloadAll;
    console.log(`  longest tasks: ${tasks}, download of everything shown ${download}`);
    console.log(
      `  memory: host RSS ${f.hostMb.toFixed(0)} MB (${ratio(f.hostMb, base.hostMb)}), page heap ${l.pageHeapMb.toFixed(0)} MB (${ratio(l.pageHeapMb, base.library.pageHeapMb)})`,
    );
    console.log(
      `  jobs list --json --limit 100: ${f.listFirst.seconds.toFixed(2)} s (${ratio(f.listFirst.seconds, base.listFirst.seconds)}), peak RSS ${f.listFirst.peakMb.toFixed(0)} MB`,
    );
    console.log(
      `  jobs list --json (all ${f.listAll.lines.toLocaleString('en-US')} lines): ${f.listAll.seconds.toFixed(1)} s (${ratio(f.listAll.seconds, base.listAll.seconds)}), peak RSS ${f.listAll.peakMb.toFixed(0)} MB (${ratio(f.listAll.peakMb, base.listAll.peakMb)})`,
    );
  }
  const top = all[all.length - 1];
  const downloadMs = typeof top.library.downloadAll === 'number' ? top.library.downloadAll : Infinity;
  const longest = Math.max(downloadMs, ...Object.values(top.library.longestTaskMs));
  console.log(`\nAims at ${top.jobs.toLocaleString('en-US')} jobs:`);
  console.log(
    `  next start within ${AIMS.nextStartS} s and ${AIMS.nextStartRatio}× the ${base.jobs.toLocaleString('en-US')}-job start: ${aim(top.nextReadyS <= AIMS.nextStartS && top.nextReadyS <= AIMS.nextStartRatio * base.nextReadyS)} (${top.nextReadyS.toFixed(2)} s, ${ratio(top.nextReadyS, base.nextReadyS)})`,
  );
  console.log(
    `  Library rows within ${AIMS.firstRowsS} s of the click: ${aim(top.library.firstRowsS <= AIMS.firstRowsS)} (${top.library.firstRowsS.toFixed(2)} s)`,
  );
  console.log(
    `  every longest task under ${AIMS.longestTaskMs} ms: ${aim(longest < AIMS.longestTaskMs)} (${Number.isFinite(longest) ? `${longest} ms` : 'a download of everything shown was not offered'})`,
  );
  console.log(`  host RSS under ${AIMS.hostMb} MB: ${aim(top.hostMb < AIMS.hostMb)} (${top.hostMb.toFixed(0)} MB)`);
  console.log(
    `  page heap under ${AIMS.pageHeapMb} MB: ${aim(top.library.pageHeapMb < AIMS.pageHeapMb)} (${top.library.pageHeapMb.toFixed(0)} MB)`,
  );
  console.log(
    `  taking the journal in within ${AIMS.importS} s: ${aim(top.importS <= AIMS.importS)} (${top.importS.toFixed(1)} s)`,
  );
}

export async function run(): Promise<void> {
  await ensureRendererBuilt(root);
  if (bundleIsStale(root, 'web')) await buildBundle(root, 'web');
  console.log(
    `Machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (process.env.BENCH_RECORDS_BUSY_ONLY === '1') return runBusyPhase();
  // The command line's TypeScript compiled once beforehand, so the first folder's figures are not a cold start's.
  await runCli(['--help']);
  const all: Figures[] = [];
  for (const jobs of SIZES) all.push(await measureFolder(jobs));
  report(all);
  await runBusyPhase();
}
