import type { RecordStoreFactory } from '../host/types';
import { openRecordStore, sharedStores, type RecordFile, type RecordStoreDeps } from './record-store';

/**
 * In-memory record files, for tests and for hosts with nowhere to write. `files` maps a file path to
 * its JSON text, so a test can seed a corrupt file and see what was moved aside.
 */
export class MemoryRecordFiles {
  readonly files = new Map<string, string>();

  file(path: string): RecordFile {
    const files = this.files;
    return {
      path,
      read() {
        const text = files.get(path);
        return text === undefined ? {} : (JSON.parse(text) as unknown);
      },
      write(value) {
        files.set(path, JSON.stringify(value, null, 2));
      },
      moveAside(suffix) {
        const target = `${path.replace(/\.json$/, '')}.${suffix}.json`;
        const text = files.get(path);
        if (text !== undefined) files.set(target, text);
        files.delete(path);
        return target;
      },
    };
  }
}

export function createMemoryStoreFactory(deps: RecordStoreDeps, files = new MemoryRecordFiles()): RecordStoreFactory {
  return sharedStores((spec) => openRecordStore(spec, files.file(`memory/${spec.name}.json`), deps));
}
