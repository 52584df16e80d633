import { join } from 'node:path';
import ElectronStore from 'electron-store';
import type { RecordStoreFactory } from '../../services/host/types';
import { confRecordFile } from '../../services/store/conf-store';
import { openRecordStore, sharedStores, type RecordStoreDeps } from '../../services/store/record-store';

/** Record stores for the desktop app: electron-store files in `dir` (the userData folder). */
export function createElectronStoreFactory(dir: string, deps: RecordStoreDeps): RecordStoreFactory {
  return sharedStores((spec) => {
    const file = confRecordFile(join(dir, `${spec.name}.json`), () => new ElectronStore({ cwd: dir, name: spec.name }));
    return openRecordStore(spec, file, deps);
  });
}
