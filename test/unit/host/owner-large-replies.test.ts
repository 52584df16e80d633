// The owner channel carries a message of any size a process can hold: an answer of many MB (`jobs list
// --json` beside a studio with thousands of jobs) and a call's arguments alike arrive whole, in parts
// of bounded lines; a connection that has not shown its token cannot make the owner hold more than a line.
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openOwnerChannel, type OwnerChannel } from '../../../electron/services/host/owner-channel';
import { reachOwner } from '../../../electron/services/host/owner-client';
import { MAX_LINE_BYTES } from '../../../electron/services/host/owner-wire';

const opened: OwnerChannel[] = [];
afterEach(async () => {
  for (const channel of opened.splice(0)) await channel.close();
});

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** An owner whose every call answers `answer(args)`, as its dispatcher would. */
async function owner(answer: (args: unknown) => unknown) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-owner-large-'));
  const channel = await openOwnerChannel({
    dataDir,
    kind: 'web host',
    dispatch: async (_channel, args) => ({ ok: true, value: answer(args) }),
    subscribe: () => () => {},
    log: quiet,
    // What these tests send takes seconds to arrive on a busy machine; the hello's deadline is not what they test.
    helloMs: 600_000,
  });
  opened.push(channel);
  return { dataDir, channel };
}

/** A ledger's worth of jobs, with text of one to four bytes a character so a part's cut falls inside some. */
function manyJobs(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `job-${i}`,
    name: `Grüße an Zoë ${i} 🎬 — ${'x'.repeat(1500)}`,
    costCredits: i % 7,
  }));
}

describe('the owner channel with large messages', () => {
  it('answers a call with a reply of many MB, whole and equal', async () => {
    const jobs = manyJobs(6_400);
    const size = Buffer.byteLength(JSON.stringify(jobs));
    // Larger than one line may be: the answer that failed as "a line too long".
    expect(size).toBeGreaterThan(MAX_LINE_BYTES);
    const { dataDir } = await owner(() => jobs);
    const link = await reachOwner(dataDir);
    try {
      const answered = await link?.call('jobs.list');
      expect(answered).toEqual(jobs);
    } finally {
      link?.close();
    }
  });

  it("takes a client's call whose arguments are many MB", async () => {
    let received = 0;
    const { dataDir } = await owner((args) => {
      received = Buffer.byteLength(JSON.stringify(args));
      return received;
    });
    const link = await reachOwner(dataDir);
    try {
      const text = 'é'.repeat(6 * 1024 * 1024);
      // Any channel will do: this owner's dispatcher answers every call with what it received.
      const call = link?.call as unknown as (channel: string, ...args: unknown[]) => Promise<unknown>;
      const answered = await call('jobs.list', text);
      expect(answered).toBe(Buffer.byteLength(JSON.stringify([text])));
    } finally {
      link?.close();
    }
  });

  it('drops a connection that sends parts past one line before showing its token', async () => {
    const { channel } = await owner(() => null);
    const socket = connect({ host: '127.0.0.1', port: channel.port });
    let said = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (said += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Two parts of 5 MB each (each line within the limit), never ended: together past a line's worth.
    const data = Buffer.alloc(5 * 1024 * 1024, 7).toString('base64');
    socket.write(`${JSON.stringify({ t: 'part', data })}\n${JSON.stringify({ t: 'part', data })}\n`);
    await closed;
    expect(said).toContain('"reason":"a message too long"');
  });
});
