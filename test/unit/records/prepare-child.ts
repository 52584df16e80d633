// A desktop app's or web host's start on an old folder, for prepare-kill.test.ts: its records prepared a
// step at a time (prepareRecords, as startHost drives it), then opened as the host opens them.
// Arguments: the data folder, then optionally a stage and a count. At the first report of that stage
// with at least that many changes, rows or entries taken in, it says `stage <the stage as JSON>` and
// waits, blocked, to be killed; otherwise it says `done` once the records are open.
import type { RecordsStage } from '../../../electron/common/bridge/system';
import { openRecords } from '../../../electron/services/records/open-ledger';
import { prepareRecords } from '../../../electron/services/records/prepare-records';

const [dataDir, killStage, killAtText] = process.argv.slice(2) as [string, string | undefined, string | undefined];
const killAt = Number(killAtText);
const taken = (stage: RecordsStage): number => ('rows' in stage ? stage.rows : 'done' in stage ? stage.done : 0);

await prepareRecords(dataDir, {
  onStage: (stage) => {
    if (stage.stage !== killStage || taken(stage) < killAt) return;
    process.stdout.write(`stage ${JSON.stringify(stage)}\n`);
    // Blocks this thread for good where the stage was reported: the test kills the process here.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
openRecords(dataDir).ledger.close();
process.stdout.write('done\n');
