// What the downloads tests share: a clock, a quiet logger, a loopback file server for the whole file,
// and a completed job whose result that server holds.
import { afterAll, beforeAll } from 'vitest';
import type { JobRecord } from '../../../electron/common/bridge/jobs';
import { startFileServer, type FileServer } from './file-server';

export const NOW = Date.parse('2026-11-22T10:00:00Z');
export const HOUR = 3_600_000;
export const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A file server started before the file's tests and closed after them. */
export function fileServerForFile(): { readonly server: FileServer } {
  const holder = {} as { server: FileServer };
  beforeAll(async () => {
    holder.server = await startFileServer();
  });
  afterAll(() => holder.server.close());
  return holder;
}

/** A completed avatar video made an hour before NOW, its result at `resultUrl`, kept 100 hours more. */
export function completedJob(id: string, resultUrl: string, patch: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    kind: 'avatar-video',
    phase: 'completed',
    remoteId: `r-${id}`,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: null,
    summary: `Job ${id}`,
    requestHash: '',
    request: { text: `Clip ${id}` },
    createdAt: NOW - HOUR,
    updatedAt: NOW,
    finishedAt: NOW - HOUR,
    expiresAt: NOW + 100 * HOUR,
    deadlineAt: NOW,
    remoteStatus: 3,
    resultUrl,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 1,
    purpose: { type: 'plain' },
    reactedAt: null,
    ...patch,
  };
}
