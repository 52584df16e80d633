import type { EventChannel, EventPayloads } from '../../common/bridge';
import { MemoryLogger } from '../log/file-logger';
import { createMemoryStoreFactory } from '../store/memory-store';
import { MemoryVault } from '../store/memory-vault';
import { NoticeBoard } from '../system/notice-board';
import type { HostBase } from './types';

export interface EmittedEvent {
  event: EventChannel;
  payload: unknown;
}

/**
 * A complete host base kept in memory: for tests of any domain, and for code that needs a host with no
 * disk. `emitted` records every event; override any part with `overrides`.
 */
export function createMemoryHostBase(
  overrides: Partial<HostBase> = {},
): HostBase & { emitted: EmittedEvent[]; logger: MemoryLogger } {
  const logger = new MemoryLogger();
  const emitted: EmittedEvent[] = [];
  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]): void => {
    emitted.push({ event, payload });
  };
  const notices = new NoticeBoard(
    (notice) => emit('notice', notice),
    () => false,
  );
  return {
    host: 'cli',
    appVersion: '0.0.0-test',
    dataDir: '/memory',
    log: logger,
    logFile: null,
    notices,
    createStore: createMemoryStoreFactory({ log: logger, notify: (n) => notices.raise(n) }),
    vault: new MemoryVault(),
    platform: {},
    emit,
    sandbox: async () => {
      throw new Error('No sandbox in the memory host; pass overrides.sandbox');
    },
    ...overrides,
    emitted,
    logger,
  };
}
