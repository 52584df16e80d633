import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { readPortRecord, startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { CATALOGUE_ROOT, call, dataOf, SLOW, until } from './harness';

const portOf = (url: string) => Number(new URL(url).port);
const opens = async (url: string) => (await fetch(url)).status;

function occupy(port: number): Promise<Server> {
  const blocker = createServer();
  return new Promise((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen(port, '127.0.0.1', () => resolve(blocker));
  });
}

describe('the built-in sandbox across restarts', { timeout: SLOW }, () => {
  const dirs: string[] = [];
  const running: RunningEmulator[] = [];
  const blockers: Server[] = [];
  afterEach(async () => {
    for (const em of running.splice(0)) await em.close();
    for (const b of blockers.splice(0)) b.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const boot = async (dataDir: string, jobSeconds = 0.2) => {
    const em = await startBuiltInSandbox(dataDir, { jobSeconds, catalogueDir: CATALOGUE_ROOT });
    running.push(em);
    return em;
  };
  const stop = async (em: RunningEmulator) => {
    running.splice(running.indexOf(em), 1);
    await em.close();
  };
  const speak = async (em: RunningEmulator, text: string) =>
    dataOf(await call(em, 'audioCreate', { input_text: text, voice_id: 'sandbox_ava' }))._id;
  const finished = async (em: RunningEmulator, id: string) =>
    dataOf(
      await until(
        () => call(em, 'audioInfo', { audio_model_id: id }),
        (r) => dataOf(r).status >= 3,
      ),
    );

  it('keeps its port per data folder, every earlier link opens, and a job running across the restart completes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-builtin-'));
    dirs.push(dataDir);
    const first = await boot(dataDir);
    const done = await finished(first, await speak(first, 'A link from the first run.'));
    expect(done.status).toBe(3);
    expect(await opens(done.url)).toBe(200);
    await stop(first);

    // A slow job left running when the sandbox stops.
    const second = await boot(dataDir, 3);
    expect(second.url).toBe(first.url);
    const running = await speak(second, 'Still speaking when the studio quits.');
    await stop(second);

    const third = await boot(dataDir, 3);
    expect(third.url).toBe(first.url);
    expect(await opens(done.url)).toBe(200);
    const resumed = await finished(third, running);
    expect(resumed.status).toBe(3);
    expect(await opens(resumed.url)).toBe(200);
  });

  it('takes another port only when its own is taken, and still serves links of the earlier one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-builtin-'));
    dirs.push(dataDir);
    const first = await boot(dataDir);
    const oldLink = (await finished(first, await speak(first, 'Made on the first port.'))).url;
    await stop(first);

    const blocker = await occupy(portOf(first.url));
    blockers.push(blocker);
    const moved = await boot(dataDir);
    expect(portOf(moved.url)).not.toBe(portOf(first.url));
    expect(readPortRecord(join(dataDir, 'sandbox'))).toEqual({ port: portOf(moved.url), earlier: [portOf(first.url)] });
    const newLink = (await finished(moved, await speak(moved, 'Made on the second port.'))).url;
    await stop(moved);
    blockers.splice(0).forEach((b) => b.close());

    const back = await boot(dataDir);
    expect(back.url).toBe(moved.url);
    expect(await opens(newLink)).toBe(200);
    expect(await opens(oldLink)).toBe(200);
    // Only the sandbox's own files are served on an earlier port, not the interface.
    expect((await fetch(`http://127.0.0.1:${portOf(first.url)}/api/open/v3/voice/list`)).status).toBe(404);
  });
});
