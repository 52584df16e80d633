import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { LiveSessions, liveSessionsSpec } from '../../../electron/services/faces/live-sessions';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { CATALOGUE_ROOT } from '../emulator/harness';

let emulator: RunningEmulator;
const prober = new MediaProber(async () => process.env.FFPROBE_BIN ?? 'ffprobe', new ProcessRunner());
const dir = mkdtempSync(join(tmpdir(), 'studio-live-'));
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.2,
    catalogueDir: CATALOGUE_ROOT,
    dataDir: join(dir, 'sandbox'),
  });
}, 120_000);
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One run of a host: its own store factory on the shared data folder, as a new process would have. */
function run(dataDir: string, origin: 'studio' | 'cli' = 'studio', connectionId = 'sandbox'): LiveSessions {
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  const createStore = createConfStoreFactory(dataDir, { log: new MemoryLogger(), notify: () => {} });
  return new LiveSessions({
    store: createStore(liveSessionsSpec),
    activeClient: async () => ({ connectionId, client }),
    client: async () => client,
    log: new MemoryLogger(),
    now: () => Date.now(),
    origin,
    probe: (link) => prober.probe(link),
  });
}

async function sandboxSessions(): Promise<Array<{ _id: string; closed: boolean }>> {
  const response = await fetch(`${emulator.url}/__sandbox/status`, { headers: { 'x-api-key': emulator.apiKey } });
  return ((await response.json()) as { data: { live: Array<{ _id: string; closed: boolean }> } }).data.live;
}

/** The ids of the sessions the data folder records as open (closed ones are kept apart, for the Library). */
const openOnDisk = (data: string): string[] =>
  (
    JSON.parse(readFileSync(join(data, 'live-sessions.json'), 'utf8')) as { data: { sessions: { id: string }[] } }
  ).data.sessions.map((s) => s.id);
const face = () => ({ path: `${emulator.url}/sandbox/sandbox-face.png`, opts: '214,196:298,196:256,234:256,274' });
/** The user's answer to the price question (a live session's price is not published). */
const yes = { confirmation: { by: 'user' as const, credits: null } };

describe('live face swap sessions are never left open', () => {
  it('records a session on disk without its channel token, updates it, and closes it', async () => {
    const data = join(dir, 'one');
    const live = run(data);
    const session = await live.create([face()], yes);
    expect(session.simulated).toBe(true);
    const onDisk = readFileSync(join(data, 'live-sessions.json'), 'utf8');
    expect(onDisk).toContain(session.id);
    expect(live.channelToken(session.id)).toMatch(/^sandbox-rtc-/);
    expect(onDisk).not.toContain(live.channelToken(session.id) ?? 'no token');
    const updated = await live.update(session.id, [face(), face()]);
    expect(updated.faces).toHaveLength(2);
    await live.close(session.id);
    expect(live.list()).toEqual([]);
    expect((await sandboxSessions()).find((s) => s._id === session.id)?.closed).toBe(true);
    await expect(live.update(session.id, [face()])).rejects.toThrow(/No open live session/);
  });

  it('refuses a face that is a video link before a session is opened or changed, naming what it is', async () => {
    const data = join(dir, 'video-face');
    const live = run(data);
    const before = (await sandboxSessions()).length;
    const clip = { path: `${emulator.url}/sandbox/sandbox-motion.mp4`, opts: face().opts };
    await expect(live.create([clip], yes)).rejects.toThrow(/must be a JPEG, PNG or WebP picture; this is an MP4 video/);
    expect((await sandboxSessions()).length).toBe(before);
    const session = await live.create([face()], yes);
    await expect(live.update(session.id, [face(), clip])).rejects.toThrow(/MP4 video/);
    expect(live.list()[0].faces).toHaveLength(1);
    await live.close(session.id);
  });

  it('closes at the next start a session a killed host left open', async () => {
    const data = join(dir, 'killed');
    const first = run(data);
    const session = await first.create([face()], yes);
    // The first run ends without closeAll (a SIGKILL): the sandbox still holds the session open.
    expect((await sandboxSessions()).find((s) => s._id === session.id)?.closed).toBe(false);

    const next = run(data);
    expect(next.list()).toEqual([]);
    expect(await next.closeLeftOpen()).toBe(1);
    expect((await sandboxSessions()).find((s) => s._id === session.id)?.closed).toBe(true);
    expect(openOnDisk(data)).not.toContain(session.id);
    // A session already closed elsewhere (1219) counts as closed, not as an error kept forever.
    expect(await run(data).closeLeftOpen()).toBe(0);
  });

  it('closes every session of the run on quit', async () => {
    const live = run(join(dir, 'quit'));
    const a = await live.create([face()], yes);
    const b = await live.create([face()], { ...yes, another: true });
    await live.closeAll();
    const states = await sandboxSessions();
    expect([a.id, b.id].map((id) => states.find((s) => s._id === id)?.closed)).toEqual([true, true]);
    expect(live.list()).toEqual([]);
  });

  it('keeps a command-line session open between commands, closes a studio one a killed host left, and the studio closes the adopted one on quit', async () => {
    const data = join(dir, 'cli');
    const killedStudio = await run(data).create([face()], yes);
    const fromCli = await run(data, 'cli').create([face()], yes);

    // The next command adopts its own session (update works) and closes the studio's left over.
    const command = run(data, 'cli');
    expect(command.list().map((s) => s.id)).toEqual([fromCli.id]);
    expect(await command.closeLeftOpen()).toBe(1);
    expect((await command.update(fromCli.id, [face(), face()])).faces).toHaveLength(2);
    const states = await sandboxSessions();
    expect([killedStudio.id, fromCli.id].map((id) => states.find((s) => s._id === id)?.closed)).toEqual([true, false]);

    // A studio started later lists it and closes it on quit.
    const studio = run(data);
    expect(studio.list().map((s) => [s.id, s.origin])).toEqual([[fromCli.id, 'cli']]);
    await studio.closeAll();
    expect((await sandboxSessions()).find((s) => s._id === fromCli.id)?.closed).toBe(true);
    expect(openOnDisk(data)).not.toContain(fromCli.id);
  });

  it("gives the page a channel to join only for a real connection's session opened in this run", async () => {
    const data = join(dir, 'join');
    const sandbox = run(data);
    const simulated = await sandbox.create([face()], yes);
    expect(() => sandbox.channel(simulated.id)).toThrow(/simulated/);
    // The emulator standing in for a real service: the connection is not the built-in sandbox.
    const real = run(join(dir, 'join-real'), 'studio', 'conn-real');
    const session = await real.create([face()], yes);
    expect(session.simulated).toBe(false);
    expect(real.channel(session.id)).toEqual({
      appId: session.appId,
      channelId: session.channelId,
      frontUserId: session.frontUserId,
      algorithmUserId: session.algorithmUserId,
      frontRtcToken: real.channelToken(session.id),
    });
    // A command-line session adopted here has no token in this process.
    const fromCli = await run(join(dir, 'join-cli'), 'cli', 'conn-real').create([face()], yes);
    expect(() => run(join(dir, 'join-cli'), 'studio', 'conn-real').channel(fromCli.id)).toThrow(/studio live create/);
    await Promise.all([sandbox.closeAll(), real.closeAll(), run(join(dir, 'join-cli')).closeAll()]);
  });

  it('opens a second session for the same faces only when asked by name, and never one nobody confirmed', async () => {
    const credit = async () =>
      (
        (await (
          await fetch(`${emulator.url}/api/open/v3/faceswap/quota/info`, { headers: { 'x-api-key': emulator.apiKey } })
        ).json()) as { data: { credit: number } }
      ).data.credit;
    const client = new ServiceClient({
      baseUrl: emulator.url,
      credentials: { kind: 'api-key', apiKey: emulator.apiKey },
    });
    const confirmed: unknown[] = [];
    const live = new LiveSessions({
      store: createConfStoreFactory(join(dir, 'second'), { log: new MemoryLogger(), notify: () => {} })(
        liveSessionsSpec,
      ),
      activeClient: async () => ({ connectionId: 'sandbox', client }),
      client: async () => client,
      log: new MemoryLogger(),
      now: () => Date.now(),
      origin: 'studio',
      probe: (link) => prober.probe(link),
      requireConfirmed: async (confirmation) => void confirmed.push(confirmation),
      balance: async () => credit(),
    });
    const before = await credit();
    await expect(live.create([face()], {} as never)).rejects.toMatchObject({ code: 'confirmation-required' });
    expect(await credit()).toBe(before);
    const first = await live.create([face()], yes);
    expect(first).toMatchObject({ statusAt: expect.any(Number), chargedCredits: before - (await credit()) });
    expect(first.chargedCredits).toBeGreaterThan(0);
    expect(live.charges('sandbox')).toEqual([
      { action: 'live-session', credits: first.chargedCredits, at: first.createdAt },
    ]);
    const afterFirst = await credit();
    await expect(live.create([face()], yes)).rejects.toMatchObject({
      code: 'session-open',
      message: expect.stringMatching(/already open .*open another only if you mean to pay for a second one/),
    });
    expect(await credit()).toBe(afterFirst);
    const second = await live.create([face()], { ...yes, another: true });
    expect(live.list().map((s) => s.id)).toEqual([first.id, second.id]);
    expect(confirmed).toEqual([yes.confirmation, yes.confirmation]);
    // The Library's list: both open, newest first, with what each cost; once closed, kept with when.
    expect(live.history().map((e) => [e.id, e.closedAt, e.chargedCredits])).toEqual([
      [second.id, null, second.chargedCredits],
      [first.id, null, first.chargedCredits],
    ]);
    await live.close(first.id);
    const [open, closed] = live.history();
    expect(open).toMatchObject({ id: second.id, closedAt: null, faceCount: 1 });
    expect(closed).toMatchObject({
      id: first.id,
      closedAt: expect.any(Number),
      chargedCredits: first.chargedCredits,
      status: first.status,
    });
    await live.closeAll();
    expect(live.history().every((e) => e.closedAt !== null)).toBe(true);
  });
});
