// Thumbnails of a campaign's rows are asked for by the grid's cells that are in view: one drawn at a
// time (each may be an ffmpeg run on the host), the cell most recently shown first, and an ask taken
// back when its cell leaves the view (scrolled away, or the workspace left) before it started.

/** Draws one row's thumbnail; null when it could not be drawn. */
export type DrawStill = (row: number) => Promise<string | null>;

interface Ask {
  row: number;
  done: (url: string | null) => void;
}

export class StillQueue {
  /** Asks not started, by row and version; the newest is taken first. */
  private readonly waiting = new Map<string, Ask>();
  private running = false;
  private closed = false;

  constructor(private readonly draw: DrawStill) {}

  /** Asks for the thumbnail of one version of a row; the answer takes the ask back if it has not started. */
  want(version: string, row: number, done: (url: string | null) => void): () => void {
    if (this.closed) return () => {};
    const ask = { row, done };
    const key = `${row}|${version}`;
    this.waiting.delete(key);
    this.waiting.set(key, ask);
    void this.next();
    return () => {
      if (this.waiting.get(key) === ask) this.waiting.delete(key);
    };
  }

  /** Rows waiting to be drawn (for tests). */
  get pending(): number {
    return this.waiting.size;
  }

  /** Nothing more is drawn (the grid is gone); a thumbnail being drawn now is let finish and dropped. */
  close(): void {
    this.closed = true;
    this.waiting.clear();
  }

  private async next(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && this.waiting.size > 0) {
        const [key, ask] = [...this.waiting.entries()].at(-1) as [string, Ask];
        this.waiting.delete(key);
        const url = await this.draw(ask.row).catch(() => null);
        if (!this.closed) ask.done(url);
      }
    } finally {
      this.running = false;
    }
  }
}
