// The bench's file server, in its own process: /f/<bytes>/<name> answers that many bytes (a repeated
// 1 MiB block, so a 2 GB file costs no memory) with an ETag and Range (with or without If-Range, as HTTP
// allows); /p/... the same paced at about 16 MB/s per file (so loopback socket buffers stay nearly empty
// and what the server sent is what the client received). /stats tells the bytes sent per path; /log, for
// paced paths, when each 64 KiB left and when each connection closed (so the bench can tell bytes sent
// before a SIGKILL from bytes sent into the killed process's sockets while the kernel tore it down);
// /reset clears both.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const block = Buffer.alloc(1024 * 1024);
for (let i = 0; i < block.length; i += 1) block[i] = (i * 31 + (i >> 10)) & 0xff;
let sent = new Map<string, number>();
/** [time (ms since the epoch), path, bytes]; bytes -1 marks the connection's close. */
let log: [number, string, number][] = [];

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/stats') return void res.end(JSON.stringify(Object.fromEntries(sent)));
  if (url === '/log') return void res.end(JSON.stringify(log));
  if (url === '/reset') {
    sent = new Map();
    log = [];
    return void res.end('ok');
  }
  const match = /^\/([fp])\/(\d+)\/[\w.-]+$/.exec(url);
  if (!match) return void res.writeHead(404).end();
  const paced = match[1] === 'p';
  const size = Number(match[2]);
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const ifRange = req.headers['if-range'];
  const start = range && (ifRange === undefined || ifRange === '"v1"') ? Number(range[1]) : 0;
  res.setHeader('etag', '"v1"');
  res.setHeader('accept-ranges', 'bytes');
  if (start >= size && start > 0) {
    res.setHeader('content-range', `bytes */${size}`);
    return void res.writeHead(416).end();
  }
  res.setHeader('content-length', String(size - start));
  if (start > 0) res.setHeader('content-range', `bytes ${start}-${size - 1}/${size}`);
  res.writeHead(start > 0 ? 206 : 200);
  let at = start;
  const slice = paced ? 64 * 1024 : block.length;
  const pump = () => {
    while (at < size) {
      const offset = at % block.length;
      const chunk = block.subarray(offset, Math.min(block.length, offset + slice, offset + (size - at)));
      at += chunk.length;
      sent.set(url, (sent.get(url) ?? 0) + chunk.length);
      if (paced) log.push([Date.now(), url, chunk.length]);
      if (paced) return void res.write(chunk, () => setTimeout(pump, 4));
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => {
    if (paced && at < size) log.push([Date.now(), url, -1]);
    at = size;
  });
  pump();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
