import { hostname } from 'node:os';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The lock file in a data folder while a host owns it. */
export const LOCK_FILE = 'studio.lock';

interface LockOwner {
  pid: number;
  host: string;
  kind: string;
  startedAt: number;
}

/** Another live process holds the data folder; the message says which. */
export class DataFolderBusyError extends Error {
  override name = 'DataFolderBusyError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The data folder ${dataDir} is in use by the ${owner.kind} (process ${owner.pid} on ${owner.host}, started ${new Date(owner.startedAt).toISOString()}). ` +
        'Close it first, or use another folder (--data-dir).',
    );
  }
}

export interface HeldLock {
  release(): void;
}

/** Whether a process of this machine with that pid is running (EPERM: it is, as another user). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number'
      ? {
          pid: owner.pid,
          host: String(owner.host ?? '?'),
          kind: String(owner.kind ?? 'studio'),
          startedAt: Number(owner.startedAt ?? 0),
        }
      : null;
  } catch {
    return null;
  }
}

/**
 * Makes this process the one owner of a data folder (two hosts on one folder lost settings,
 * connections and records). The lock file is created exclusively; one left by a process that is no
 * longer running (a crash, SIGKILL) on this machine is taken over, so a crash never leaves it stuck.
 */
export function lockDataFolder(dataDir: string, kind: string): HeldLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: LockOwner = { pid: process.pid, host: hostname(), kind, startedAt: Date.now() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(path, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return {
        release: () => {
          if (readOwner(path)?.pid === mine.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    const stale = owner === null || (owner.host === mine.host && owner.pid !== mine.pid && !processAlive(owner.pid));
    if (!stale) throw new DataFolderBusyError(dataDir, owner);
    rmSync(path, { force: true });
  }
  throw new Error(`Could not take the lock on ${dataDir}; try again.`);
}
