import type { DownloadEntry, DownloadTotals, DownloadView } from '../../common/bridge/downloads';
import type { DownloadManagerOptions } from './download-manager-options';
import { SpeedMeter } from './speed-meter';

const PROGRESS_EVERY_MS = 250;

type Outlets = Pick<DownloadManagerOptions, 'onChange' | 'onTotals'>;

/**
 * What the page sees of the queue: each entry with its speed and time left, announced at once for a
 * change of state but at most every quarter second for bytes arriving, each time with the totals.
 */
export class DownloadProgress {
  private readonly meters = new Map<string, SpeedMeter>();
  private readonly lastEmit = new Map<string, number>();

  constructor(
    private readonly outlets: Outlets,
    private readonly now: () => number,
    private readonly totals: () => DownloadTotals,
  ) {}

  /** Starts measuring a download's speed while it runs; the transfer samples the meter. */
  measure(id: string): SpeedMeter {
    const meter = new SpeedMeter(this.now);
    this.meters.set(id, meter);
    return meter;
  }

  stopMeasuring(id: string): void {
    this.meters.delete(id);
  }

  /** `force`: a change the page must see now; otherwise bytes, announced when the last news is old enough. */
  changed(entry: DownloadEntry, force: boolean): void {
    const at = this.now();
    if (!force && at - (this.lastEmit.get(entry.id) ?? 0) < PROGRESS_EVERY_MS) return;
    // Only bytes arriving are held back: a download not running keeps no mark (a worker saves thousands).
    if (entry.state === 'downloading') this.lastEmit.set(entry.id, at);
    else this.lastEmit.delete(entry.id);
    this.outlets.onChange?.(this.view(entry));
    this.outlets.onTotals?.(this.totals());
  }

  view(entry: DownloadEntry): DownloadView {
    const rate = entry.state === 'downloading' ? (this.meters.get(entry.id)?.bytesPerSecond() ?? null) : null;
    const left = rate && entry.totalBytes !== null ? Math.max(0, (entry.totalBytes - entry.bytes) / rate) : null;
    return { ...entry, bytesPerSecond: rate, secondsLeft: left };
  }
}
