import { readdir, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A lock whose owner cannot be read or checked counts as stale after this long. */
const UNKNOWN_OWNER_STALE_MS = 180_000;

interface Owner {
  pid: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock left by a process that died (a closed app, a test worker torn down mid-generation) would
 * otherwise stall every later start for minutes: an owner on this machine that no longer runs frees it
 * at once; a lock without a readable owner frees itself after a few minutes.
 */
async function stale(lock: string): Promise<boolean> {
  const owner = await readFile(join(lock, 'owner.json'), 'utf8').then(
    (text) => JSON.parse(text) as Owner,
    () => null,
  );
  if (owner && owner.host === hostname()) return !alive(owner.pid);
  const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? 0);
  return age > UNKNOWN_OWNER_STALE_MS;
}

/**
 * Takes the generation lock of a cache folder, or returns 'ready' as soon as another generator has
 * finished (`ready()` says so). On taking it, removes build folders that dead generators left behind.
 */
export async function takeGenerationLock(
  dir: string,
  ready: () => Promise<boolean>,
  pollMs = 200,
): Promise<'taken' | 'ready'> {
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await stale(lock)) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, pollMs));
      if (await ready()) return 'ready';
    }
  }
  const prefix = `${basename(dir)}.build-`;
  const leftovers = (await readdir(dirname(dir)).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  await Promise.all(leftovers.map((name) => rm(join(dirname(dir), name), { recursive: true, force: true })));
  return 'taken';
}

export async function releaseGenerationLock(dir: string): Promise<void> {
  await rm(`${dir}.lock`, { recursive: true, force: true });
}
