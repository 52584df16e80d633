import { renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Conf from 'conf';
import type { RecordStoreFactory } from '../host/types';
import { openRecordStore, sharedStores, type RecordFile, type RecordStoreDeps } from './record-store';

/** The part of conf's (and electron-store's) API a record file needs. */
export interface ConfLike {
  readonly path: string;
  store: Record<string, unknown>;
}

/**
 * Adapts a conf-like instance to a RecordFile. The instance is created on first read so that a file
 * conf refuses to parse can be moved aside and the instance created again over a fresh file.
 */
export function confRecordFile(path: string, create: () => ConfLike): RecordFile {
  let instance: ConfLike | undefined;
  const get = (): ConfLike => (instance ??= create());
  return {
    path,
    read: () => get().store,
    write(value) {
      get().store = value;
    },
    moveAside(suffix) {
      const target = join(dirname(path), `${basename(path, '.json')}.${suffix}.json`);
      renameSync(path, target);
      instance = undefined;
      return target;
    },
  };
}

/** Record stores for the Node hosts (web host, CLI): one JSON file per record in `dir`, written by conf. */
export function createConfStoreFactory(dir: string, deps: RecordStoreDeps): RecordStoreFactory {
  return sharedStores((spec) => {
    const file = confRecordFile(join(dir, `${spec.name}.json`), () => new Conf({ cwd: dir, configName: spec.name }));
    return openRecordStore(spec, file, deps);
  });
}
