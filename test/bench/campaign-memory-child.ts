// One size of the campaigns bench's memory figure in a process of its own (campaigns.bench.ts starts it
// with --expose-gc). Usage: node --expose-gc --import tsx campaign-memory-child.ts '{"url","apiKey","rows"}';
// prints one JSON line: the heap and RSS before and while the rows are held, and how long the check took.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { held, memory } from './campaigns.bench';

const { url, apiKey, rows } = JSON.parse(process.argv[2] ?? '{}') as { url: string; apiKey: string; rows: number };
const work = mkdtempSync(join(tmpdir(), 'studio-bench-campaign-memory-'));
try {
  const base = memory();
  const { checkSeconds, hold } = await held({ url, apiKey }, rows, work);
  const after = memory();
  rmSync(work, { recursive: true, force: true });
  // Exits once the line is out: the catalogue's and the store's handles would otherwise keep it alive.
  process.stdout.write(`${JSON.stringify({ rows, base, after, checkSeconds, held: hold !== null })}\n`, () =>
    process.exit(0),
  );
} catch (error) {
  rmSync(work, { recursive: true, force: true });
  throw error;
}
