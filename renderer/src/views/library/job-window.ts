import type { JobView } from '@common/bridge';

/** Rows per page asked of the host: a screenful or two, so a scroll asks for little at a time. */
export const PAGE_ROWS = 50;

/** One page of the current filter and order, `offset` rows in. */
export type FetchPage = (offset: number, limit: number) => Promise<JobView[]>;

/**
 * The rows of one filter and order that are near the screen, fetched from the host a page at a time
 * and dropped once the view is far from them: what the page holds stays a few pages, however many jobs
 * the filter leaves. A refresh (jobs came or went) asks the pages in view again and keeps showing the
 * rows it had until the answers come, so the table does not blink.
 */
export class JobWindow {
  /** The pages of the current generation, by page number. */
  private pages = new Map<number, JobView[]>();
  /** What was shown before the last refresh, shown until its page is fetched again. */
  private stale = new Map<number, JobView[]>();
  private asked = new Set<number>();
  private generation = 0;
  private lastRange: [number, number] = [0, 0];

  constructor(
    private readonly fetchPage: FetchPage,
    /** Called when rows came (or were dropped or changed): the view reads them again. */
    private readonly changed: () => void,
    /** Pages kept beyond the margin on either side before they are dropped. */
    private readonly keepPages = 4,
  ) {}

  /** A new filter or order: nothing held is of it. */
  reset(): void {
    this.generation += 1;
    this.pages.clear();
    this.stale.clear();
    this.asked.clear();
    this.changed();
  }

  /** The same filter and order, but jobs came, went or moved: the rows in view are asked again. */
  refresh(): Promise<void> {
    this.generation += 1;
    for (const [n, rows] of this.pages) this.stale.set(n, rows);
    this.pages.clear();
    this.asked.clear();
    return this.show(...this.lastRange);
  }

  /** The rows from `start` to `end` (exclusive); null where a row is not fetched yet. */
  rows(start: number, end: number): (JobView | null)[] {
    const out: (JobView | null)[] = [];
    for (let i = start; i < end; i += 1) {
      const n = Math.floor(i / PAGE_ROWS);
      const page = this.pages.get(n) ?? this.stale.get(n);
      out.push(page?.[i - n * PAGE_ROWS] ?? null);
    }
    return out;
  }

  /**
   * The rows known from the top without a gap: a count to scroll by until the totals say the whole
   * one (on a large folder the counts come a second or more after the first rows).
   */
  get leading(): number {
    return this.fromTop().rows;
  }

  /** Whether `leading` is every row: the pages from the top end with one short of PAGE_ROWS. */
  get complete(): boolean {
    return this.fromTop().complete;
  }

  private fromTop(): { rows: number; complete: boolean } {
    let rows = 0;
    for (let n = 0; ; n += 1) {
      const page = this.pages.get(n) ?? this.stale.get(n);
      if (!page) return { rows, complete: false };
      rows += page.length;
      if (page.length < PAGE_ROWS) return { rows, complete: true };
    }
  }

  /** How many pages are held (fetched or stale): what the windowing bounds. */
  get held(): number {
    return new Set([...this.pages.keys(), ...this.stale.keys()]).size;
  }

  /**
   * The view shows rows `start` to `end`: the pages they fall in, and one more on either side, are
   * fetched if they are not held; pages far from them are dropped.
   */
  async show(start: number, end: number): Promise<void> {
    this.lastRange = [start, end];
    const first = Math.max(0, Math.floor(start / PAGE_ROWS) - 1);
    const last = Math.floor(Math.max(start, end - 1) / PAGE_ROWS) + 1;
    this.drop(first - this.keepPages, last + this.keepPages);
    const wanted: number[] = [];
    for (let n = first; n <= last; n += 1) if (!this.pages.has(n) && !this.asked.has(n)) wanted.push(n);
    await Promise.all(wanted.map((n) => this.load(n)));
  }

  /**
   * A job changed: where it is held its row is replaced. Answers what it was where held (null: not held).
   * Not announced through `changed`: the caller says when the view reads the rows again (a campaign's
   * updates come many a second, and are drawn together).
   */
  update(job: JobView): JobView | null {
    let before: JobView | null = null;
    for (const pages of [this.pages, this.stale])
      for (const rows of pages.values()) {
        const i = rows.findIndex((row) => row.id === job.id);
        if (i >= 0) {
          before ??= rows[i];
          rows[i] = job;
        }
      }
    return before;
  }

  /** A held job by id (the details panel shows it), or null. */
  find(id: string): JobView | null {
    for (const pages of [this.pages, this.stale])
      for (const rows of pages.values()) {
        const job = rows.find((row) => row.id === id);
        if (job) return job;
      }
    return null;
  }

  private async load(n: number): Promise<void> {
    const generation = this.generation;
    this.asked.add(n);
    try {
      const rows = await this.fetchPage(n * PAGE_ROWS, PAGE_ROWS);
      // An answer to a question of an earlier filter, order or refresh is not of these rows.
      if (generation !== this.generation) return;
      this.pages.set(n, rows);
      this.stale.delete(n);
      this.changed();
    } catch (error) {
      if (generation === this.generation) this.asked.delete(n);
      throw error;
    }
  }

  private drop(from: number, to: number): void {
    for (const pages of [this.pages, this.stale]) for (const n of pages.keys()) if (n < from || n > to) pages.delete(n);
    for (const n of this.asked) if (n < from || n > to) this.asked.delete(n);
  }
}
