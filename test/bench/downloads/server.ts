// The bench's file server, in its own process: /f/<bytes>/<name> answers that many bytes (a repeated
// 1 MiB block, so a 2 GB file costs no memory) with an ETag and Range; /p/... the same paced at about
// 16 MB/s per file (so loopback socket buffers stay nearly empty and what the server sent is what the
// client received); /stats tells the bytes sent per path, /reset clears them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const block = Buffer.alloc(1024 * 1024);
for (let i = 0; i < block.length; i += 1) block[i] = (i * 31 + (i >> 10)) & 0xff;
let sent = new Map<string, number>();

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/stats') return void res.end(JSON.stringify(Object.fromEntries(sent)));
  if (url === '/reset') {
    sent = new Map();
    return void res.end('ok');
  }
  const match = /^\/([fp])\/(\d+)\/[\w.-]+$/.exec(url);
  if (!match) return void res.writeHead(404).end();
  const paced = match[1] === 'p';
  const size = Number(match[2]);
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = range && req.headers['if-range'] === '"v1"' ? Number(range[1]) : 0;
  res.setHeader('etag', '"v1"');
  res.setHeader('accept-ranges', 'bytes');
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
      if (paced) return void res.write(chunk, () => setTimeout(pump, 4));
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (at = size));
  pump();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
