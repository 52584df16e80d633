import { renameSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { EmulatorState } from './types';

/** Records serialised between two turns of the event loop: small enough that no request waits long. */
const RECORDS_A_STEP = 400;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the sandbox's whole records to `path` a few hundred at a time, letting requests in between.
 * Serialising a 10,000-row campaign's records in one go held the thread that answers requests for
 * hundreds of milliseconds (seconds on a busy machine); requests waiting meanwhile were then all counted
 * at once against the rate limit, and a second later refused with 1005 although the client had kept to
 * the rate. Records changed while this runs are written as they are when reached; every change made
 * since the fold began is in the next journal too, which is read after this file, so the mix is sound.
 * `stillWanted` is asked before the file replaces the old one (a close meanwhile wrote a newer one).
 * Answers the file's size, or null when it was abandoned.
 */
export async function foldInSteps(
  state: EmulatorState,
  generation: number,
  path: string,
  stillWanted: () => boolean,
): Promise<number | null> {
  const temp = `${path}.fold`;
  const file = await open(temp, 'w');
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    await file.write(text);
  };
  try {
    await write(`{"generation":${generation}`);
    for (const part of ['jobs', 'files'] as const) {
      const records: Record<string, unknown> = state[part];
      const names = Object.keys(records);
      await write(`,${JSON.stringify(part)}:{`);
      let first = true;
      for (let at = 0; at < names.length; at += RECORDS_A_STEP) {
        let chunk = '';
        for (const name of names.slice(at, at + RECORDS_A_STEP)) {
          // Gone since the fold began: its removal is in the next journal.
          if (records[name] === undefined) continue;
          chunk += `${first ? '' : ','}${JSON.stringify(name)}:${JSON.stringify(records[name])}`;
          first = false;
        }
        await write(chunk);
        await nextTurn();
      }
      await write('}');
    }
    const { jobs: _jobs, files: _files, ...rest } = state;
    await write(`,${JSON.stringify(rest).slice(1)}`);
    await file.close();
    if (!stillWanted()) return (await rm(temp, { force: true }), null);
    // At once after the question: a close may not write its newer file between the two.
    renameSync(temp, path);
    return bytes;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}
