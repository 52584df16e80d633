import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';
import { readPortRecord } from '../../../electron/emulator/built-in';

const dir = mkdtempSync(join(tmpdir(), 'studio-live-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const data = join(dir, 'data');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: data }, cwd: dir };
  return { io: value, out, err };
}

const recorded = () => readFileSync(join(data, 'live-sessions.json'), 'utf8');

describe('studio live create, update, close', () => {
  it('opens a session from detected faces, keeps it between commands, updates and closes it', async () => {
    await runCli(['models', '--json'], io().io); // the CLI's sandbox takes its port for this data folder
    const record = readPortRecord(join(data, 'sandbox'));
    const face = `http://127.0.0.1:${record?.port}/sandbox/sandbox-face.png`;
    const group = `http://127.0.0.1:${record?.port}/sandbox/sandbox-group.png`;

    const created = io();
    expect(await runCli(['live', 'create', '--yes', '--face', face, '--json'], created.io)).toBe(0);
    const session = JSON.parse(created.out.join('\n')) as {
      id: string;
      faces: Array<{ path: string; opts: string }>;
      origin: string;
      simulated: boolean;
    };
    // opts are the landmarks detection found on the sandbox portrait (its face is painted where it is known to be).
    expect(session.faces).toEqual([{ path: face, opts: '214,196:298,196:256,234:256,274' }]);
    expect([session.origin, session.simulated]).toEqual(['cli', true]);
    expect(recorded()).toContain(session.id);

    const updated = io();
    expect(await runCli(['live', 'update', session.id, '--face', face, group], updated.io)).toBe(0);
    expect(updated.out[0]).toBe(`session ${session.id}: 2 face(s)`);

    const closed = io();
    expect(await runCli(['live', 'close', session.id], closed.io)).toBe(0);
    expect(closed.out).toEqual([`session ${session.id} closed`]);
    expect(
      (JSON.parse(recorded()) as { data: { sessions: { id: string }[] } }).data.sessions.map((s) => s.id),
    ).not.toContain(session.id);
    const again = io();
    expect(await runCli(['live', 'close', session.id], again.io)).toBe(1);
    // Not recorded here any more: the connection itself is asked, and says the session is closed.
    expect(again.err[0]).toMatch(/code 121[69]/);
  }, 180_000);

  it('refuses a face that is not a link, or none, before opening anything', async () => {
    const none = io();
    expect(await runCli(['live', 'create'], none.io)).toBe(2);
    expect(none.err[0]).toMatch(/^required option '--face <URL\.\.\.>' not specified\n/);
    const local = io();
    expect(await runCli(['live', 'create', '--yes', '--face', 'me.png'], local.io)).toBe(2);
    expect(local.err[0]).toContain('"me.png" is not an http(s) link');
  });

  it('names the picture in which no face was found, and opens nothing', async () => {
    const record = readPortRecord(join(data, 'sandbox'));
    const run = io();
    expect(
      await runCli(
        ['live', 'create', '--yes', '--face', `http://127.0.0.1:${record?.port}/sandbox/sandbox-backdrop.png`],
        run.io,
      ),
    ).toBe(1);
    expect(run.err.join('\n')).toMatch(/sandbox-backdrop\.png: .*(no face|No faces)/i);
    expect(JSON.parse(recorded()) as unknown).toMatchObject({ data: { sessions: [] } });
  }, 120_000);
});
