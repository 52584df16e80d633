import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventListener } from '../../../electron/services/host/compose';
import { createDispatcher } from '../../../electron/services/host/dispatcher';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { openOwnerChannel, type OwnerChannel } from '../../../electron/services/host/owner-channel';
import { OwnerCallError, OwnerRefusedError, handshake, reachOwner } from '../../../electron/services/host/owner-client';
import { OWNER_RECORD_FILE, readOwnerRecord } from '../../../electron/services/host/owner-record';

const opened: OwnerChannel[] = [];
afterEach(async () => {
  for (const channel of opened.splice(0)) await channel.close();
});

/** A real owner: the shared domains and dispatcher over a memory host, and a channel on a fresh folder. */
async function owner(dataDir = mkdtempSync(join(tmpdir(), 'studio-owner-'))) {
  const base = createMemoryHostBase();
  const logged: string[] = [];
  const log = {
    debug: () => {},
    info: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})),
    warn: (m: string, f?: object) => logged.push(m + JSON.stringify(f ?? {})),
    error: () => {},
  };
  const domains = createDomains(base);
  const dispatch = createDispatcher({ handlers: domains.handlers, log, redact: (t) => t });
  const listeners = new Set<EventListener>();
  const channel = await openOwnerChannel({
    dataDir,
    kind: 'web host',
    dispatch,
    files: domains,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    log,
  });
  opened.push(channel);
  const emit: EventListener = (event, payload) => listeners.forEach((l) => l(event, payload));
  return { dataDir, channel, logged, emit, listeners };
}

const connectTo = (port: number) =>
  new Promise<ReturnType<typeof connect>>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });

/** A pid no process of this machine has any more: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('the owner channel of a data folder', () => {
  it('records its endpoint and token in a file only the user can read, and removes it on close', async () => {
    const { dataDir, channel } = await owner();
    const path = join(dataDir, OWNER_RECORD_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const record = readOwnerRecord(dataDir);
    expect(record).toMatchObject({ pid: process.pid, port: channel.port, kind: 'web host' });
    expect(record?.token.length).toBeGreaterThanOrEqual(32);
    await channel.close();
    opened.pop();
    expect(existsSync(path)).toBe(false);
  });

  it("answers bridge calls through the owner's dispatcher, which validates each one", async () => {
    const { dataDir } = await owner();
    const link = await reachOwner(dataDir);
    expect(link?.kind).toBe('web host');
    await expect(link?.call('settings.get')).resolves.toMatchObject({ notifications: true });
    // The same refusal the page gets for arguments outside the channel's schema.
    const refused = link?.call('settings.update', { notifications: 'yes' } as never);
    await expect(refused).rejects.toBeInstanceOf(OwnerCallError);
    await expect(refused).rejects.toMatchObject({ code: 'invalid-arguments' });
    link?.close();
  });

  it('refuses a wrong token, answers nothing to that connection and never logs the token', async () => {
    const { dataDir, channel, logged } = await owner();
    const socket = await connectTo(channel.port);
    const dropped = new Promise((resolve) => socket.once('close', resolve));
    await expect(handshake(socket, 'x'.repeat(43))).rejects.toThrow(/refused this command: wrong token/);
    // The owner ends the connection itself.
    await dropped;
    const token = readOwnerRecord(dataDir)?.token as string;
    expect(logged.some((line) => line.includes('wrong token'))).toBe(true);
    expect(logged.join('\n')).not.toContain(token);
  });

  it("refuses a call or a named file sent before the token, and text that is not the channel's (an HTTP request)", async () => {
    const { channel } = await owner();
    for (const first of [
      '{"t":"call","id":1,"channel":"settings.get","args":[]}\n',
      `{"t":"file","id":1,"path":${JSON.stringify(import.meta.filename)},"use":"media"}\n`,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    ]) {
      const socket = await connectTo(channel.port);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.write(first);
      });
      expect(answer).not.toMatch(/"t":"answer"/);
      expect(answer).toMatch(/"t":"refused"/);
    }
  });

  it('drops a connection that never shows a token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-owner-silent-'));
    const channel = await openOwnerChannel({
      dataDir,
      kind: 'web host',
      dispatch: async () => ({ ok: true, value: null }),
      subscribe: () => () => {},
      log: { debug() {}, info() {}, warn() {}, error() {} },
      helloMs: 50,
    });
    opened.push(channel);
    const socket = await connectTo(channel.port);
    let said = '';
    socket.on('data', (chunk) => (said += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(said).toMatch(/"reason":"no hello"/);
    expect(channel.clients()).toBe(0);
  });

  it('sends a client only the events it asked for', async () => {
    const { dataDir, emit, listeners } = await owner();
    const link = await reachOwner(dataDir);
    const got: string[] = [];
    const arrived = new Promise<void>((resolve) =>
      link?.listen(['jobs.removed'], (event, payload) => {
        got.push(`${event} ${JSON.stringify(payload)}`);
        resolve();
      }),
    );
    // The listen line is read before this call's answer comes back, so the subscription exists now.
    await link?.call('settings.get');
    expect(listeners.size).toBe(1);
    emit('jobs.changed', { id: 'not-asked-for' } as never);
    emit('jobs.removed', { id: 'job-1' });
    await arrived;
    expect(got).toEqual(['jobs.removed {"id":"job-1"}']);
    link?.close();
  });

  it('ignores a record left by a process that has exited, or whose endpoint refuses, and the next owner replaces it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-owner-stale-'));
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    // Some other program now listens on the port the dead owner had: it is never spoken to.
    const stranger = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    const strangerPort = (stranger.address() as { port: number }).port;
    const stale = (pid: number, port: number) =>
      writeFileSync(
        join(dataDir, OWNER_RECORD_FILE),
        JSON.stringify({ pid, host: hostname(), kind: 'web host', port, token: 't'.repeat(43), startedAt: 1 }),
        { mode: 0o600 },
      );
    stale(await deadPid(), strangerPort);
    expect(await reachOwner(dataDir)).toBeNull();
    stranger.close();
    // A live pid (this process) whose endpoint is gone: the connection is refused.
    stale(process.pid, closedPort);
    expect(await reachOwner(dataDir)).toBeNull();
    const { channel } = await owner(dataDir);
    const record = JSON.parse(readFileSync(join(dataDir, OWNER_RECORD_FILE), 'utf8'));
    expect(record.port).toBe(channel.port);
    expect(record.token).not.toBe('t'.repeat(43));
    const link = await reachOwner(dataDir);
    await expect(link?.call('settings.get')).resolves.toBeDefined();
    link?.close();
  });

  it('says when the owner is reached but goes away mid-command', async () => {
    const { dataDir, channel } = await owner();
    const link = await reachOwner(dataDir);
    await channel.close();
    opened.pop();
    await expect(link?.call('settings.get')).rejects.toBeInstanceOf(OwnerRefusedError);
  });

  it('closing for a command-line owner lets a running command finish first, and takes no new one', async () => {
    const { dataDir, channel } = await owner();
    const link = await reachOwner(dataDir);
    opened.pop();
    let closed = false;
    const closing = channel.close({ waitForClients: true }).then(() => (closed = true));
    expect(readOwnerRecord(dataDir)).toBeNull();
    await expect(link?.call('settings.get')).resolves.toBeDefined();
    expect(closed).toBe(false);
    expect(channel.clients()).toBe(1);
    link?.close();
    await closing;
    expect(await reachOwner(dataDir)).toBeNull();
  });
});
