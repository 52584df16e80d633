import { RecordStatus } from '@common/api';
import type { JobRecord } from '../../../electron/emulator/state/types';

/** A sandbox job record as its create makes one (queueing, nothing made yet), with `patch` over it. */
export function sandboxJob(id: string, patch: Partial<JobRecord> = {}): JobRecord {
  return {
    _id: id,
    kind: 'tts',
    uid: 1,
    status: RecordStatus.Queueing,
    createdAt: 0,
    updatedAt: 0,
    webhook: '',
    request: {},
    cost: 1,
    resultFile: '',
    extraFiles: {},
    facts: {},
    reason: '',
    webhookLog: { attempts: 0, delivered: false, lastError: '' },
    ...patch,
  };
}
