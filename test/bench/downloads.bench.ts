// Downloads, measured against a loopback server in its own process:
//  1. throughput: 100 files of 20 MB through the download manager vs curl fetching the same files with
//     the same parallelism in the same run (ratio studio / curl; aim >= 0.9); also, for scale, Node's own
//     HTTP client piping to disk with nothing else (the floor of any Node downloader on this machine);
//  2. peak memory of the downloading process for 20 MB files vs one 2 GB file (aim: bounded, the same);
//  3. bytes fetched again after the downloader is SIGKILLed mid-way and resumed (aim: <= one chunk per
//     file; a chunk is 64 KiB), from a paced server so the count is what the client really received.
// Files are deleted as they are saved; the bench checks free disk space first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const FILES = Number(process.env.BENCH_FILES ?? 100);
const MB = 1024 * 1024;
const SIZE = 20 * MB;
const BIG = 2048 * MB;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 3);
const CHUNK = 64 * 1024;

function tsx(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, BENCH_CONCURRENCY: String(CONCURRENCY) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(buffer.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
  });
}

async function download(work: string, urls: string[], mode: 'delete' | 'keep'): Promise<{ seconds: number; peak: number }> {
  const child = tsx('test/bench/downloads/downloader.ts', [join(work, 'queue.json'), join(work, 'out'), JSON.stringify(urls), mode]);
  const line = await firstLine(child);
  const match = /^peak (\d+) failed (\d+) seconds ([\d.]+)$/.exec(line);
  if (!match || match[2] !== '0') throw new Error(`downloader: ${line}`);
  return { seconds: Number(match[3]), peak: Number(match[1]) };
}

async function nodeBaseline(work: string, urls: string[]): Promise<number> {
  const line = await firstLine(tsx('test/bench/downloads/node-baseline.ts', [join(work, 'node'), JSON.stringify(urls)]));
  const match = /^seconds ([\d.]+)$/.exec(line);
  if (!match) throw new Error(`node baseline: ${line}`);
  rmSync(join(work, 'node'), { recursive: true, force: true });
  return Number(match[1]);
}

function aim(label: string, ok: boolean, figure: string): void {
  console.log(`aim ${label}: ${ok ? 'met' : 'NOT met'} (${figure})`);
}

function curl(work: string, urls: string[]): number {
  const out = join(work, 'curl');
  mkdirSync(out, { recursive: true });
  const args = ['--parallel', '--parallel-max', String(CONCURRENCY), '--no-progress-meter', '--fail'];
  for (const [i, url] of urls.entries()) args.push('-o', join(out, `file-${i}.bin`), url);
  const started = performance.now();
  const result = spawnSync('curl', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`curl exited with ${result.status}`);
  rmSync(out, { recursive: true, force: true });
  return seconds;
}

async function stats(base: string): Promise<Record<string, number>> {
  return (await (await fetch(`${base}/stats`)).json()) as Record<string, number>;
}

function folderBytes(dir: string): number {
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

export async function run(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-downloads-'));
  const free = statfsSync(scratch).bavail * statfsSync(scratch).bsize;
  const needed = FILES * SIZE + 512 * MB;
  console.log(`scratch ${scratch}: ${(free / 1024 ** 3).toFixed(1)} GB free, needs ${(needed / 1024 ** 3).toFixed(1)} GB at most`);
  if (free < needed) throw new Error('not enough free disk space for the bench');
  const server = tsx('test/bench/downloads/server.ts', []);
  try {
    const base = `http://127.0.0.1:${await firstLine(server)}`;
    const urls = Array.from({ length: FILES }, (_, i) => `${base}/f/${SIZE}/file-${i}.bin`);
    const total = FILES * SIZE;

    // 1. Throughput: curl, Node's bare client, then the studio; same parallelism, same files.
    const curlSeconds = curl(scratch, urls);
    const nodeSeconds = await nodeBaseline(scratch, urls);
    const studio = await download(join(scratch, 'studio'), urls, 'delete');
    rmSync(join(scratch, 'studio'), { recursive: true, force: true });
    const curlRate = total / MB / curlSeconds;
    const nodeRate = total / MB / nodeSeconds;
    const studioRate = total / MB / studio.seconds;
    console.log(`throughput, ${FILES} × 20 MB, ${CONCURRENCY} at once: curl ${curlRate.toFixed(0)} MB/s, bare Node client ${nodeRate.toFixed(0)} MB/s, studio ${studioRate.toFixed(0)} MB/s`);
    aim('throughput >= 0.9x curl', studioRate / curlRate >= 0.9, `${(studioRate / curlRate).toFixed(2)}x; bare Node ${(nodeRate / curlRate).toFixed(2)}x curl, studio ${(studioRate / nodeRate).toFixed(2)}x bare Node`);

    // 2. Peak memory: the 20 MB run above vs one 2 GB file.
    const big = await download(join(scratch, 'big'), [`${base}/f/${BIG}/big.bin`], 'delete');
    rmSync(join(scratch, 'big'), { recursive: true, force: true });
    console.log(`peak memory (RSS) of the downloader: ${FILES} × 20 MB ${(studio.peak / MB).toFixed(0)} MB, 1 × 2 GB ${(big.peak / MB).toFixed(0)} MB`);
    // "The same" within a quarter: RSS moves by tens of MB with the garbage collector's timing.
    aim('peak memory bounded, 2 GB file about the same as 20 MB files', big.peak / studio.peak <= 1.25, `ratio ${(big.peak / studio.peak).toFixed(2)}`);

    // 3. SIGKILL mid-way, then resume from the queue on disk.
    await fetch(`${base}/reset`);
    const killFiles = Math.min(FILES, 20);
    // Paced, so what the server sent is what the client received (not megabytes parked in loopback buffers).
    const killUrls = urls.slice(0, killFiles).map((url) => url.replace('/f/', '/p/'));
    const work = join(scratch, 'kill');
    const out = join(work, 'out');
    const child = tsx('test/bench/downloads/downloader.ts', [join(work, 'queue.json'), out, JSON.stringify(killUrls), 'keep']);
    while (folderBytes(out) < 0.4 * killFiles * SIZE) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const onDisk = folderBytes(out);
    const resumed = await download(work, [], 'keep');
    const sent = await stats(base);
    const perFile = killUrls.map((url) => (sent[new URL(url).pathname] ?? 0) - SIZE);
    const again = perFile.reduce((a, b) => a + b, 0);
    const worst = Math.max(...perFile);
    const saved = readdirSync(out).filter((n) => !n.endsWith('.part')).length;
    console.log(`SIGKILL with ${(onDisk / MB).toFixed(0)} of ${(killFiles * SIZE) / MB} MB on disk, then resumed in ${resumed.seconds.toFixed(1)} s: ${saved}/${killFiles} files saved; fetched again ${(again / 1024).toFixed(0)} KiB in all, at most ${(worst / 1024).toFixed(0)} KiB for one file`);
    aim(`re-fetched after SIGKILL <= one chunk (${CHUNK / 1024} KiB) per file`, worst <= CHUNK, `worst file ${(worst / CHUNK).toFixed(2)} chunks`);
    if (saved !== killFiles) throw new Error('not every file was saved after the resume');
  } finally {
    server.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}
