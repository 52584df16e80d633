import { InProcessBudget, type Budget, type RowBound } from './budget';

/** Why a row may not start now. */
export type RowRefusal = 'balance' | 'daily-limit' | 'cap';

/** A row of a run (`kind/runId/row`, `kind/runId`: names, never secrets), the connection it sends on, its queue (null: made here). */
export interface RowPlace {
  row: string;
  run: string;
  connection: string;
  queue: string | null;
}

/**
 * The rooms a row's price must fit in beside the rows held, as the row starts last looked at them (what
 * ended since taken off): the balance and today's limit are the account's, the cap its run's. Null: none.
 */
export interface RowRooms {
  balance: number | null;
  day: number | null;
  cap: number | null;
}

export type RowHoldOutcome =
  { ok: true } | { ok: false; reason: RowRefusal; short: number; free: number | null; beside: number };

/** Where a row's price is held: which budget, which pools. */
interface Where {
  budget: Budget;
  pools: string[];
}

/** A row this process holds, and where (known once written: a row kept at a restart is counted here at once). */
interface Held {
  place: RowPlace;
  credits: number | null;
  at: Promise<Where>;
  /** Where, once known: let go of at once (in-process, before anything else can be held). */
  known?: Where;
}

const REASONS: RowRefusal[] = ['balance', 'daily-limit', 'cap'];

/** A run's name on a budget (`kind/runId`), and one of its rows' (`kind/runId/row`): names, never secrets. */
export const runName = (kind: string, runId: string): string => `${kind}/${runId}`;
export const rowName = (kind: string, runId: string, row: number): string => `${runName(kind, runId)}/${row}`;
/** The pool a run's rows are held in, by every holder: a worker finds a queued row's hold there. */
export const runPool = (run: string): string => `run:${run}`;
/** The pool of an account's rows on a shared budget, by its name there (a proof, the same in every process). */
export const accountPool = (name: string): string => `account:${name}`;

export interface RowHoldsDeps {
  /** The budget of the rows made here (this process's, or a worker's shared one). */
  own?: Budget;
  /** The budget of a queue's runs, shared by every studio sending rows to it (its Redis); `run` is `kind/runId`. */
  queue?(queue: string, run: string): Promise<Budget>;
  /** The account's name on a shared budget (the same in every process serving it, no secret); null: none. */
  account?(connection: string): Promise<string | null>;
}

/**
 * The spending gate's holds of rows' whole prices: a row starts only once its price is held beside every
 * row held on its account and run, on the budget its run's rows share (a queued run's: its queue's Redis,
 * so two studios on one account cannot both start rows on its last credits). This process's own rows
 * are known here at once (how many are under way, what a row held), so the row starts ask nothing else.
 */
export class RowHolds {
  private readonly held = new Map<string, Held>();
  /** Holds on their way, each with its row's place: counted as under way, so a bound on rows holds while they are asked. */
  private readonly asking = new Map<string, { place: RowPlace; answer: Promise<RowHoldOutcome> }>();
  private readonly own: Budget;

  constructor(private readonly deps: RowHoldsDeps = {}) {
    this.own = deps.own ?? new InProcessBudget();
  }

  /**
   * Holds the row's whole price (null: unknown, it goes alone) within the rooms, or says which refused.
   * The rooms are read at the moment the hold is sent, nothing awaited after: a row that ends meanwhile
   * is then either still held there or already counted as spent in them, never neither.
   */
  async hold(place: RowPlace, credits: number | null, rooms: () => RowRooms): Promise<RowHoldOutcome> {
    if (this.held.has(place.row)) return { ok: true };
    // A row asked for again while its hold is on its way gets that answer: it is held once.
    const asked = this.asking.get(place.row);
    if (asked) return asked.answer;
    const answer = this.ask(place, credits, rooms).finally(() => this.asking.delete(place.row));
    this.asking.set(place.row, { place, answer });
    return answer;
  }

  private async ask(place: RowPlace, credits: number | null, roomsNow: () => RowRooms): Promise<RowHoldOutcome> {
    const { budget, account } = await this.where(place);
    const run = runPool(place.run);
    const rooms = roomsNow();
    const bounds: RowBound[] = [
      { pool: account, room: rooms.balance },
      { pool: account, room: rooms.day },
      { pool: run, room: rooms.cap },
    ];
    const answer = await budget.hold(place.row, credits, bounds);
    if (answer.held) {
      const known = { budget, pools: [account, run] };
      this.held.set(place.row, { place, credits, at: Promise.resolve(known), known });
      return { ok: true };
    }
    const { bound, free, beside } = answer;
    const short = credits === null || free === null ? 0 : Math.max(0, credits - free);
    return { ok: false, reason: REASONS[bound], short, free, beside };
  }

  /**
   * A row under way from before a restart goes on: its price is held whatever the room, counted here at
   * once and written to its budget when that answers (nothing waits for a Redis away).
   */
  keep(place: RowPlace, credits: number | null): void {
    if (this.held.has(place.row)) return;
    const at = this.where(place).then(async ({ budget, account }) => {
      const pools = [account, runPool(place.run)];
      await budget.keep(place.row, credits, pools);
      return { budget, pools };
    });
    at.catch(() => undefined);
    this.held.set(place.row, { place, credits, at });
  }

  /** The row ended or went back to waiting: its price is let go of. Answers what it held (undefined: nothing). */
  release(row: string): Pick<Held, 'place' | 'credits'> | undefined {
    const held = this.held.get(row);
    if (!held) return undefined;
    this.held.delete(row);
    // Not awaited: a Redis away lets it go when it is back, and a dead holder's rows lapse anyway.
    const letGo = ({ budget, pools }: Where) => budget.release(row, pools).catch(() => undefined);
    if (held.known) void letGo(held.known);
    else void held.at.then(letGo, () => undefined);
    return held;
  }

  holds(row: string): boolean {
    return this.held.has(row);
  }

  /** This process's rows held or being held (on a connection, or of one run). */
  underWay(where: { connection?: string; run?: string }): number {
    let n = 0;
    for (const { place } of [...this.held.values(), ...this.asking.values()])
      if (
        (where.connection === undefined || place.connection === where.connection) &&
        (where.run === undefined || place.run === where.run)
      )
        n += 1;
    return n;
  }

  /** A queued run's rows are held on its queue's budget, by the account's name there; the others here, by connection. */
  private async where(place: RowPlace): Promise<{ budget: Budget; account: string }> {
    if (place.queue === null || !this.deps.queue)
      return { budget: this.own, account: `connection:${place.connection}` };
    const [budget, name] = await Promise.all([
      this.deps.queue(place.queue, place.run),
      this.deps.account?.(place.connection),
    ]);
    return { budget, account: name ? accountPool(name) : `connection:${place.connection}` };
  }
}
