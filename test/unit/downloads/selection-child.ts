// A studio queueing a selection's downloads, for selection-queue.test.ts, which kills it half way.
// Arguments: the data folder and how many jobs. It says `page <n>` as it reads each page of ids.
import { join } from 'node:path';
import { queueSelection } from '../../../electron/services/downloads/selection-queue';
import { pagesOf, selectionService } from './selection-fixture';

const [dataDir, count] = process.argv.slice(2) as [string, string];
const service = selectionService(dataDir);
const pages = pagesOf(Number(count), (page) => void process.stdout.write(`page ${page}\n`));
await queueSelection(service, pages, { folder: join(dataDir, 'out'), template: '{id}', origin: 'library' }, () =>
  process.stdout.write('done\n'),
);
