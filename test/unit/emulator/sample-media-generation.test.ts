import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaFetcher } from '../../../electron/emulator/media/fetch';
import { releaseGenerationLock, takeGenerationLock } from '../../../electron/emulator/catalogue/generation-lock';
import type { Files } from '../../../electron/emulator/state/files';
import { until } from '../../wait';

// The first test run on a fresh machine failed: a test worker that was generating the sample media was
// torn down mid-way, its lock kept every other sandbox waiting for minutes, and a job given a sample
// link in the meantime failed with "no such file".
const roots: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sample-media-'));
  roots.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has already ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('the sample media generation lock', () => {
  it('takes at once a lock whose owner on this machine has died, and clears the build it left', async () => {
    const dir = join(scratch(), 'v3');
    mkdirSync(`${dir}.lock`);
    writeFileSync(join(`${dir}.lock`, 'owner.json'), JSON.stringify({ pid: deadPid(), host: hostname() }));
    mkdirSync(`${dir}.build-123-abcdef`);
    // A poll of an hour: waiting even once for the dead owner would outlast the test's time limit.
    expect(await takeGenerationLock(dir, async () => false, 3_600_000)).toBe('taken');
    expect(existsSync(`${dir}.build-123-abcdef`)).toBe(false);
    await releaseGenerationLock(dir);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('waits while a live owner generates, and returns as soon as its media are ready', async () => {
    const dir = join(scratch(), 'v3');
    expect(await takeGenerationLock(dir, async () => false)).toBe('taken');
    // The owner finishes between the second and the third look.
    let looks = 0;
    expect(await takeGenerationLock(dir, async () => (looks += 1) === 3, 10)).toBe('ready');
    expect(looks).toBe(3);
    expect(existsSync(`${dir}.lock`)).toBe(true);
  });
});

describe('a job given a sample link while the sample media are generated', () => {
  it('waits for them instead of failing with "no such file"', async () => {
    const dir = scratch();
    const sample = join(dir, 'sandbox-face.png');
    const files = {
      baseUrl: 'http://127.0.0.1:4780',
      localFileFor: (url: string) => (url.endsWith('/sandbox/sandbox-face.png') && existsSync(sample) ? sample : null),
    } as unknown as Files;
    let finish = () => undefined as void;
    const generated = new Promise<void>((resolve) => (finish = resolve));
    const waitedFor = vi.fn(() => generated);
    const fetcher = new MediaFetcher(files, join(dir, 'fetch'), fetch, waitedFor);
    const fetched = fetcher.toFile('http://127.0.0.1:4780/sandbox/sandbox-face.png', 'image');
    // The job is waiting for the generation; the media appear only then.
    await until('the fetch to wait for the generation', () => waitedFor.mock.calls.length > 0);
    writeFileSync(sample, 'png');
    finish();
    await expect(fetched).resolves.toBe(sample);
    await expect(fetcher.toFile('http://127.0.0.1:4780/sandbox/missing.png', 'image')).rejects.toMatchObject({
      code: 1014,
    });
  });
});
