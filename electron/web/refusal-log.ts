/**
 * Logs refused requests without letting them flood the log: the first few of each minute as one
 * short line each (the path cut to 80 characters), the rest counted and summed up in one line when the
 * minute is over. 2,000 unauthenticated requests used to write 8 MB and rotate the history away.
 */
export class RefusalLog {
  private windowStart = 0;
  private shown = 0;
  private suppressed = 0;

  constructor(
    private readonly warn: (message: string, fields: Record<string, unknown>) => void,
    private readonly now: () => number = Date.now,
    private readonly perMinute = 5,
  ) {}

  refused(reason: string, path: string): void {
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      if (this.suppressed > 0)
        this.warn('web host refused more requests', { count: this.suppressed, withinSeconds: 60 });
      this.windowStart = now;
      this.shown = 0;
      this.suppressed = 0;
    }
    if (this.shown < this.perMinute) {
      this.shown += 1;
      this.warn('web host refused a request', { reason, path: path.length > 80 ? `${path.slice(0, 77)}...` : path });
    } else this.suppressed += 1;
  }
}
