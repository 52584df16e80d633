// Issue 64: every link in a queued row must be one the service can fetch from anywhere. A campaign whose
// rows name a picture on a private network address (one this machine serves, so the studio's own check
// finds it) is refused by `campaign run --queue` before any price, saying which link and why: the
// sandbox here fetches this machine's links but never a private network's. Nothing is priced, sent or
// recorded. Real Redis and a sandbox in its own process; the command in this process.
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyHost } from '../../../electron/common/net/address-rules';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { queuePlace } from './queue-fixture';

const place = queuePlace('studio-queue-links-');
const dir = place.dir;
let files: Server | null = null;
afterAll(() => files?.close());

/** An address of this machine on a private network (IPv4 10/8, 172.16/12, 192.168/16 or IPv6 fc00::/7). */
function privateAddress(): string {
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? [])
      if (!entry.internal && classifyHost(entry.address) === 'private')
        return entry.family === 'IPv6' ? `[${entry.address}]` : entry.address;
  throw new Error('this machine has no private network address to serve the picture on');
}

async function jobsAt(sandbox: { url: string; apiKey: string }): Promise<number> {
  const answer = await fetch(`${sandbox.url}/__sandbox/status`, { headers: { 'x-api-key': sandbox.apiKey } });
  return ((await answer.json()) as { data: { jobs: { total: number } } }).data.jobs.total;
}

describe('a queued campaign whose rows name a picture on a private network', () => {
  it('is refused before any price, naming the link and why, and leaves nothing behind', async () => {
    const { redis, sandbox } = await place.start({}, { credits: 1_000_000, jobSeconds: 0.5 });
    writeLogo(join(dir, 'logo.png'));
    const logo = readFileSync(join(dir, 'logo.png'));
    files = createServer((_, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(logo));
    await new Promise<void>((resolve) => files!.listen(0, '::', resolve));
    const port = (files.address() as { port: number }).port;
    const link = `http://${privateAddress()}:${port}/logo.png`;
    writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
    writeFileSync(
      join(dir, 'rows.csv'),
      `First name,company,voice,avatar,logo,email\nAna,Acme,Ava,SandboxBen,${link},ana@example.com\n`,
    );

    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { STUDIO_API_KEY: sandbox.apiKey },
      cwd: dir,
    };
    const common = ['--base-url', sandbox.url, '--data-dir', join(dir, 'data')];
    const code = await runCli(
      ['campaign', 'run', 'greeting.json', 'rows.csv', '--out', 'out', '--queue', redis.url, '--yes', ...common],
      io,
    );
    const said = err.join('\n');
    expect(code, said).not.toBe(EXIT.ok);
    // The studio's check found the picture; the queue's rule refuses where it lives.
    expect(said).toContain('1 row, 1 can be sent');
    expect(said).toContain(
      `These rows cannot go on a queue: ${link} is on ${new URL(link).hostname}, a private network address: the service at ${sandbox.url} cannot fetch it.`,
    );
    // Nothing priced, sent or recorded.
    expect(said).not.toMatch(/paid jobs of the campaign|Cost/);
    expect(await jobsAt(sandbox)).toBe(0);
    const status = await runCli(['campaign', 'status', 'out', ...common], io);
    expect(status).toBe(EXIT.failed);
    expect(err.join('\n')).toContain('No campaign saves into');
  }, 120_000);
});
