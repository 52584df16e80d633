import { assertAllowedTarget } from '../../services/net/guarded-fetch';

export interface WebhookDelivery {
  attempts: number;
  delivered: boolean;
  lastError: string;
}

/**
 * POSTs a callback with retries: `attempts` tries, waiting backoffMs, then twice that, and so on.
 * A 2xx answer counts as delivered. Each try times out after 10 s.
 */
export class WebhookSender {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly attempts: number,
    private readonly backoffMs: number,
    private readonly log: (line: string) => void,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  send(url: string, jobId: string, payload: unknown, onDone: (d: WebhookDelivery) => void): void {
    // Recording the outcome may fail too (a full disk): logged, never an unhandled rejection that ends the process.
    const task = this.deliver(url, jobId, payload)
      .then(onDone)
      .catch((error: unknown) =>
        this.log(
          `webhook for ${jobId}: its outcome could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  private async deliver(url: string, jobId: string, payload: unknown): Promise<WebhookDelivery> {
    let lastError = '';
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      if (this.closed) return { attempts: attempt - 1, delivered: false, lastError: 'sandbox stopped' };
      try {
        // The sandbox never posts to internal addresses, and does not follow a redirect to one.
        await assertAllowedTarget(url, { refusePrivate: true });
        const res = await this.fetchFn(url, {
          redirect: 'manual',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'avatar-studio-sandbox' },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return { attempts: attempt, delivered: true, lastError: '' };
        lastError = `HTTP ${res.status}`;
      } catch (error) {
        lastError = (error as Error).message;
      }
      this.log(`webhook for ${jobId} attempt ${attempt} failed: ${lastError}`);
      if (attempt < this.attempts) await sleep(this.backoffMs * 2 ** (attempt - 1));
    }
    return { attempts: this.attempts, delivered: false, lastError };
  }

  /** Waits briefly for deliveries under way, then stops retrying. */
  async close(graceMs = 2000): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inFlight]), sleep(graceMs)]);
    this.closed = true;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
