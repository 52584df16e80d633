import { appendFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../projects/atomic-file';
import { readRecordFolder } from '../../projects/record-folder';

/** What every run (a batch, a campaign) has that the journal needs. */
export interface JournalRun<Row extends { row: number }> {
  id: string;
  createdAt: number;
  rows: Row[];
}

interface Pending<Run> {
  /** The last sequence number handed out. */
  seq: number;
  /** Lines appended since the last snapshot (written or not). */
  since: number;
  lines: string[];
  snapshot: Run | null;
  chain: Promise<void>;
}

/**
 * Runs in `<data folder>/<folder>`: `<id>.json` is a snapshot of the whole run (what older studios wrote,
 * and still read), `<id>.rows.jsonl` the rows changed since, one line per change (`{"seq":7,"row":{…}}`).
 * A row's change appends its own line (about 300 bytes), where rewriting the run's file costs every row's
 * (300 KB for 1,000 rows, 3 MB for 10,000, several times per row). Once the lines outnumber twice the rows
 * (at least 256), the snapshot is written again (temporary file, fsync, rename) with the last sequence
 * number it holds, and the lines are dropped: a line at or below that number is already in it, so a kill
 * between the two loses nothing and reads the same. A torn last line (a kill mid-write) is ignored: at
 * worst a row's newest change is lost, and nothing paid hangs on it, since the ledger holds which jobs each
 * row made and the engine asks it before every create.
 */
export class RunJournal<Row extends { row: number }, Run extends JournalRun<Row>> {
  private readonly dir: string;
  private readonly pending = new Map<string, Pending<Run>>();

  constructor(
    dataDir: string,
    folder: string,
    private readonly parse: (raw: unknown, path: string) => Run,
    private readonly noun = 'run',
  ) {
    this.dir = join(dataDir, folder);
  }

  async get(id: string): Promise<Run | null> {
    let text: string;
    try {
      text = await readFile(this.path(id), 'utf8');
    } catch {
      return null;
    }
    let raw: { rows?: unknown[]; journalSeq?: number };
    try {
      raw = JSON.parse(text) as typeof raw;
    } catch (error) {
      throw new Error(
        `The ${this.noun} record ${this.path(id)} is not valid JSON (${(error as Error).message}); it was left as it is.`,
        { cause: error },
      );
    }
    const folded = typeof raw.journalSeq === 'number' ? raw.journalSeq : 0;
    const lines = await readFile(this.journalPath(id), 'utf8').catch(() => '');
    let seq = folded;
    const rows = [...(raw.rows ?? [])] as { row: number }[];
    for (const line of lines.split('\n')) {
      if (line.trim() === '') continue;
      let entry: { seq: number; row: { row: number } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (entry.seq <= folded) continue;
      seq = Math.max(seq, entry.seq);
      const at = rows.findIndex((r) => r.row === entry.row.row);
      if (at === -1) rows.push(entry.row);
      else rows[at] = entry.row;
    }
    const run = this.parse({ ...raw, rows }, this.path(id));
    const known = this.pending.get(id);
    // A torn last line (a kill mid-write) is closed before the next one, so that one reads whole.
    const close = lines.length > 0 && !lines.endsWith('\n') ? ['\n'] : [];
    if (!known || known.seq < seq)
      this.pending.set(id, { seq, since: seq - folded, lines: close, snapshot: null, chain: Promise.resolve() });
    return run;
  }

  /** Every run that can be read, newest first; one that cannot is moved aside (never overwritten) and skipped. */
  list(): Promise<Run[]> {
    return readRecordFolder(this.dir, (id) => this.get(id));
  }

  /** The whole run written again (made, replaced, or its own fields changed: state, balance). */
  putRun(run: Run): Promise<void> {
    const state = this.stateOf(run.id);
    state.snapshot = run;
    return this.kick(run.id, state);
  }

  /** One row changed: its line is appended; `run` (as it is now, the row in it) is the snapshot when one is due. */
  putRow(run: Run, row: Row): Promise<void> {
    const state = this.stateOf(run.id);
    state.seq += 1;
    state.since += 1;
    state.lines.push(`${JSON.stringify({ seq: state.seq, row })}\n`);
    // A snapshot waiting to be written takes this change too: the lines it drops must be in it.
    if (state.snapshot || state.since > Math.max(256, 2 * run.rows.length)) state.snapshot = run;
    return this.kick(run.id, state);
  }

  /** The run's files removed once what was being written of it is on disk (a worker's one-row run, reported). */
  async remove(id: string): Promise<void> {
    await this.pending.get(id)?.chain;
    this.pending.delete(id);
    await rm(this.path(id), { force: true });
    await rm(this.journalPath(id), { force: true });
  }

  /** Settles once every change asked for so far is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].map((p) => p.chain));
  }

  private stateOf(id: string): Pending<Run> {
    let state = this.pending.get(id);
    if (!state) {
      state = { seq: 0, since: 0, lines: [], snapshot: null, chain: Promise.resolve() };
      this.pending.set(id, state);
    }
    return state;
  }

  /** One write at a time per run; what waits is written together (lines in one append, or one snapshot). */
  private kick(id: string, state: Pending<Run>): Promise<void> {
    const next = state.chain.then(async () => {
      const snapshot = state.snapshot;
      if (snapshot) {
        // The run as it is now holds every line handed out so far: they are folded in.
        state.snapshot = null;
        state.lines = [];
        state.since = 0;
        await writeFileAtomic(this.path(id), `${JSON.stringify({ ...snapshot, journalSeq: state.seq })}\n`);
        await rm(this.journalPath(id), { force: true });
        return;
      }
      if (state.lines.length === 0) return;
      const text = state.lines.join('');
      state.lines = [];
      await appendFile(this.journalPath(id), text);
    });
    state.chain = next.catch(() => undefined);
    return next;
  }

  private path(id: string): string {
    if (!/^[\w-]{1,200}$/.test(id)) throw new Error(`"${id}" is not a ${this.noun} id`);
    return join(this.dir, `${id}.json`);
  }

  private journalPath(id: string): string {
    return join(this.dir, `${id}.rows.jsonl`);
  }
}
