// Issue 64: a worker or a queued run looks at its queue before anything else. No Redis on the port, a
// wrong password, an HTTP server on the port, or a port that answers nothing: each is said in words
// within seconds, the command exits 4 (unavailable), nothing is asked of the service (nothing priced),
// and no campaign record is left claiming to run or to have finished.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { redisPerFile } from '../../redis-per-file';
import { smallTemplate } from '../campaign/campaign-harness';
import { writeLogo } from './cli-io';
import { closedPort } from '../../closed-port';

const PASSWORD = 'check-secret-5';
const redis = redisPerFile({ password: PASSWORD });
const dir = mkdtempSync(join(tmpdir(), 'studio-queue-check-'));
/** A hang guard: the check settles in about 4 s; without it a worker waited for minutes. */
const GUARD_MS = 30_000;

let serviceCalls = 0;
let service: Server;
let web: Server;
let silent: NetServer;
let deadPort = 0;
const held = new Set<Socket>();

const listen = (server: Server | NetServer): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );

beforeAll(async () => {
  // The service the commands are pointed at: any request it gets is a price asked or work sent.
  service = createHttpServer((_, res) => {
    serviceCalls += 1;
    res.writeHead(500).end('{}');
  });
  await listen(service);
  // An HTTP server where Redis should be, and a port that takes connections and never answers.
  web = createHttpServer((_, res) => res.end('hello'));
  silent = createServer((socket) => held.add(socket));
  deadPort = await closedPort();
  await Promise.all([listen(web), listen(silent)]);
  writeFileSync(join(dir, 'greeting.json'), JSON.stringify(smallTemplate().project));
  writeLogo(join(dir, 'logo.png'));
  writeFileSync(
    join(dir, 'rows.csv'),
    'First name,company,voice,avatar,logo,email\nAna,Acme,Ava,SandboxBen,logo.png,ana@example.com\n',
  );
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  service.closeAllConnections();
  web.closeAllConnections();
  await Promise.all([service, web, silent].map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

const portOf = (server: Server | NetServer) => (server.address() as { port: number }).port;

interface Case {
  name: string;
  /** The queue's address with its password, as STUDIO_QUEUE_URL gives it. */
  url: () => string;
  said: RegExp;
}

const cases: Case[] = [
  { name: 'no Redis on the port', url: () => `redis://127.0.0.1:${deadPort}`, said: /Nothing listens at redis:\/\// },
  {
    name: 'a wrong password',
    url: () => `redis://:wrong-one@127.0.0.1:${redis().port}`,
    said: /refused the password/,
  },
  { name: 'an HTTP server on the port', url: () => `redis://127.0.0.1:${portOf(web)}`, said: /is not Redis/ },
  {
    name: 'a port that answers nothing',
    url: () => `redis://127.0.0.1:${portOf(silent)}`,
    said: /did not answer within/,
  },
];

/** A command run in-process against the counting service, with its queue's password in the environment. */
async function run(args: string[], url: string, data: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_API_KEY: 'service-key', STUDIO_QUEUE_URL: url },
    cwd: dir,
  };
  const base = ['--base-url', `http://127.0.0.1:${portOf(service)}`, '--data-dir', join(dir, data)];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`waited ${GUARD_MS / 1000} s for studio ${args[0]} to give up`)),
      GUARD_MS,
    );
  });
  try {
    const code = await Promise.race([runCli([...args, ...base], io), guard]);
    return { code, out, said: err.join('\n') };
  } finally {
    clearTimeout(timer);
  }
}

describe('a bad queue setting', () => {
  it.each(cases)('$name: a worker says so and exits 4 before anything else', async ({ url, said }) => {
    const shown = url().replace(`:wrong-one@`, '@');
    const worker = await run(['worker', '--queue', shown, '--json'], url(), 'worker-data');
    expect(worker.code, worker.said).toBe(EXIT.unavailable);
    expect(worker.said).toMatch(said);
    expect(worker.said).not.toContain('takes rows');
    expect(worker.said).not.toContain('wrong-one');
    expect(JSON.parse(worker.out.join('\n'))).toMatchObject({ error: { code: 'unavailable' } });
    expect(serviceCalls).toBe(0);
  });

  it.each(cases)('$name: campaign run prices nothing and leaves no campaign', async ({ name, url, said }) => {
    const data = `run-data-${cases.findIndex((c) => c.name === name)}`;
    const shown = url().replace(`:wrong-one@`, '@');
    const out = join(dir, `out-${data}`);
    const queued = await run(
      ['campaign', 'run', 'greeting.json', 'rows.csv', '--out', out, '--queue', shown, '--yes'],
      url(),
      data,
    );
    expect(queued.code, queued.said).toBe(EXIT.unavailable);
    expect(queued.said).toMatch(said);
    expect(queued.said).not.toContain('wrong-one');
    expect(serviceCalls).toBe(0);
    // No record of a campaign into that folder: none running, none "finished" with its rows failed. The
    // refused run did not even start its data folder, which campaign status names (exit 4, none made).
    const status = await run(['campaign', 'status', out], url(), data);
    expect(status.code).toBe(EXIT.unavailable);
    expect(status.said).toMatch(/The data folder .* does not exist/);
  });
});
