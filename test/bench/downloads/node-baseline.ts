// The floor under the studio's figure: Node's own HTTP client piping each file straight to disk, with the
// same parallelism and nothing else (no queue, no resume, no checks, no fsync). args: folder, JSON list
// of URLs, and "keep" to keep the files (the SIGKILL measurement) rather than delete each once written.
// Prints "seconds <s>" when done.
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

const [folder, urlsJson, mode] = process.argv.slice(2);
const urls = JSON.parse(urlsJson) as string[];
const parallel = Number(process.env.BENCH_CONCURRENCY ?? 3);
mkdirSync(folder, { recursive: true });

function get(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The same 1 MiB reads the studio's client asks for (see services/downloads/http-get.ts).
    const req = request(url, { highWaterMark: 1024 * 1024 } as Parameters<typeof request>[1], (res) => {
      const out = createWriteStream(file, { highWaterMark: 1024 * 1024 });
      res.pipe(out);
      finished(out)
        .then(() => (mode === 'keep' ? undefined : rm(file)))
        .then(resolve, reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (next < urls.length) {
      const i = next++;
      await get(urls[i], join(folder, `file-${i}.bin`));
    }
  }),
);
process.stdout.write(`seconds ${(performance.now() - started) / 1000}\n`);
