// The download manager in its own process, so its peak memory is its own and it can be SIGKILLed:
// args: queue file (its folder holds the records database the queue is kept in), folder, JSON list of URLs ([] to resume what the queue holds), and "bare" to leave
// out the command line's modules (see below). Files are kept (the bench removes them after the
// measured time, as it does curl's). Prints "peak <bytes> failed <n> seconds <s>" when done.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DownloadManager } from '../../../electron/services/downloads/download-manager';
import { openRecords } from '../../../electron/services/records/open-ledger';

const [file, folder, urlsJson, shape] = process.argv.slice(2);
// The manager runs in the app's main process or in `studio download`, each holding 20 MB or more of
// live objects; this process loads what the `studio` command loads, to be shaped like them. Alone, the
// manager's process holds 9 MB, and V8, which sizes its next full collection from the live heap and
// counts the socket buffers allocated since the last one against it, then collected everything about
// every 20 ms at loopback speed (a hundred full collections for 2 GB, a third of the time).
if (shape !== 'bare') await import('../../../electron/cli/index');

const manager = new DownloadManager({
  store: openRecords(dirname(file)).downloads.store,
  concurrency: () => Number(process.env.BENCH_CONCURRENCY ?? 3),
  onEnd: (view) => {
    if (view.state !== 'saved') process.stderr.write(`${view.relativeName}: ${view.state} ${view.reason ?? ''}\n`);
  },
});
const urls = JSON.parse(urlsJson) as string[];
// Timed from here, so the process's start-up (loading TypeScript) is not counted against it.
const started = performance.now();
await manager.enqueueAll(
  urls.map((url, i) => ({ jobId: `j${i}`, url, folder, relativeName: `file-${i}.bin`, origin: 'cli' as const })),
);
await manager.whenIdle();
const failed = manager.list().filter((d) => d.state !== 'saved').length;
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
process.stdout.write(`peak ${Number(peak) * 1024} failed ${failed} seconds ${(performance.now() - started) / 1000}\n`);
