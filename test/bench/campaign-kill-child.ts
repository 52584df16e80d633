// One host of the campaigns bench's SIGKILL phase, in a process of its own (campaigns.bench.ts starts
// it, the first time with the kill hook of the CLI tests, which SIGKILLs the process once the ledger has
// written down its Nth create, before that create leaves). Usage: node --import tsx campaign-kill-child.ts
// '{"url","apiKey","rows","dataDir","outDir"}'. It makes the campaign unless the data folder has it, runs
// it to its end, and prints one JSON line: its wall time, its requests and the rows' states.
import { checked, host, stopHost, CONCURRENCY } from './campaigns.bench';
import { counting } from './voices.bench';

const { url, apiKey, rows, dataDir, outDir } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  apiKey: string;
  rows: number;
  dataDir: string;
  outDir: string;
};
// The engine's and the pacer's timers do not hold a process open (a host has its own reasons to stay): this one does.
const alive = setInterval(() => undefined, 1_000);
const counter = counting();
const h = host({ url, apiKey }, dataDir, counter.fetch);
if (!(await h.runner.get('bench')))
  await h.runner.create(await checked(h, { url }, rows, 'bench', outDir, CONCURRENCY));
const before = { requests: counter.requests(), polls: counter.polls(), refused: counter.rateLimited() };
const started = performance.now();
h.engine.start();
h.reactor.start();
const end = await h.runner.run('bench');
const seconds = (performance.now() - started) / 1000;
clearInterval(alive);
await stopHost(h);
process.stdout.write(
  `${JSON.stringify({
    seconds,
    requests: counter.requests() - before.requests,
    polls: counter.polls() - before.polls,
    rateLimited: counter.rateLimited() - before.refused,
    rows: end.rows.map((r) => ({ state: r.state, problems: r.problems.length, fileName: r.fileName })),
  })}\n`,
  () => process.exit(0),
);
