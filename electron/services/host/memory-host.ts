import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * disk. `emitted` records every event; override any part with `overrides`. What still goes to disk (the
 * records database a domain opens in its data folder) goes to a fresh folder of its own: a fixed one was
 * shared by every test file at once and kept between runs, so a database an earlier version left there
 * failed the next run.
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
    dataDir: overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-memory-host-')),
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
