/**
 * Undo/redo over immutable documents. One entry per FINISHED gesture: the editor applies operations
 * freely while a drag runs (showing `present` of its own) and calls `commit` once at drag end.
 * Committing the same document reference again is ignored, so a no-op operation adds no entry.
 */
export class DocumentHistory<T> {
  private past: T[] = [];
  private future: T[] = [];
  private current: T;

  constructor(
    initial: T,
    private readonly limit = 200,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`History limit must be a positive integer (got ${limit})`);
    this.current = initial;
  }

  get present(): T {
    return this.current;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  /** Number of undo steps available (at most `limit`). */
  get depth(): number {
    return this.past.length;
  }

  /** Records `next` as the new present; clears redo. Returns the present. */
  commit(next: T): T {
    if (next === this.current) return this.current;
    this.past.push(this.current);
    if (this.past.length > this.limit) this.past.splice(0, this.past.length - this.limit);
    this.future = [];
    this.current = next;
    return next;
  }

  undo(): T {
    const previous = this.past.pop();
    if (previous === undefined) return this.current;
    this.future.push(this.current);
    this.current = previous;
    return previous;
  }

  redo(): T {
    const next = this.future.pop();
    if (next === undefined) return this.current;
    this.past.push(this.current);
    this.current = next;
    return next;
  }

  /** Starts over from `doc` (after opening another project): no undo across files. */
  reset(doc: T): T {
    this.past = [];
    this.future = [];
    this.current = doc;
    return doc;
  }
}
