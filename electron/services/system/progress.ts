/** One kind of long work that shows on the taskbar: jobs, renders, downloads, uploads. */
export interface ProgressShare {
  /** Done and total amounts in any unit the source likes (they are summed as fractions). */
  set(fraction: number | null): void;
}

/**
 * The taskbar and dock show one bar: every source reports its own fraction (or null when idle), and the
 * bar shows their mean until all are done. Without it, a finished preview would clear the bar while
 * jobs still run.
 */
export class ProgressAggregator {
  private readonly shares = new Map<string, number>();

  constructor(private readonly show: (fraction: number | null) => void) {}

  source(name: string): ProgressShare {
    return {
      set: (fraction) => {
        if (fraction === null) this.shares.delete(name);
        else this.shares.set(name, Math.min(1, Math.max(0, fraction)));
        this.render();
      },
    };
  }

  private render(): void {
    if (this.shares.size === 0) return this.show(null);
    let sum = 0;
    for (const value of this.shares.values()) sum += value;
    this.show(sum / this.shares.size);
  }
}
