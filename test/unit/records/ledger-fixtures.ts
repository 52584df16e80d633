import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord } from '../../../electron/common/bridge/jobs';

const dirs: string[] = [];

/** A scratch data folder, removed by `removeTempDirs` (call it in afterEach). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function record(id: string, phase: JobRecord['phase'] = 'submitting', createdAt = 1): JobRecord {
  return {
    id,
    kind: 'tts',
    phase,
    remoteId: null,
    connectionId: 'c',
    connectionName: 'C',
    projectId: null,
    summary: 's',
    requestHash: 'h',
    request: { input_text: 'x' },
    createdAt,
    updatedAt: createdAt,
    finishedAt: null,
    expiresAt: null,
    deadlineAt: 2,
    remoteStatus: null,
    resultUrl: null,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 0,
    purpose: { type: 'plain' },
    reactedAt: null,
  };
}

/** A journal line as the studio wrote them before the records database. */
export const putLine = (job: JobRecord): string => JSON.stringify({ put: job });
