import type { WebhookEnvelope, WebhookEvent } from '../../common/api';
import type { CallbackFaults } from '../faults';

/** How a callback leaves: posted to the job's callback address (with retries), its outcome recorded. */
export type SendCallback = (envelope: WebhookEnvelope) => void;

interface Deps {
  faults: () => CallbackFaults;
  seal: (event: WebhookEvent) => WebhookEnvelope;
  /** Where a forgery says the result is: a link of the forger's, never a file this sandbox made. */
  forgedUrl: (jobId: string) => string;
  delayMs: () => number;
  log: (line: string) => void;
}

/**
 * The sandbox's callback faults, counted like its other faults (`POST /__sandbox/faults`): callbacks
 * lost, sent twice, sent late, out of order (a job's processing callback after its end), and preceded
 * by a forgery. A receiver that verifies, is idempotent and polls an overdue job makes every job end
 * as the sandbox made it whatever these do.
 */
export class CallbackFaultDelivery {
  /** Processing callbacks held back until their job's end, by job id. */
  private readonly held = new Map<string, WebhookEnvelope>();

  constructor(private readonly d: Deps) {}

  deliver(event: WebhookEvent, envelope: WebhookEnvelope, send: SendCallback): void {
    const faults = this.d.faults();
    const id = event._id;
    if (faults.forged) {
      // Encrypted as the service would, under the genuine body's signature: only the signature tells it.
      const changed = this.d.seal({ ...event, status: 3, url: this.d.forgedUrl(id) });
      send({ ...changed, signature: envelope.signature, timestamp: envelope.timestamp, nonce: envelope.nonce });
    }
    const final = event.status !== 2;
    if (faults.lost) {
      this.d.log(`webhook for ${id}: lost (sandbox fault)`);
    } else if (faults.reordered && !final) {
      this.held.set(id, envelope);
    } else {
      const go = () => {
        send(envelope);
        if (faults.duplicated) send(envelope);
      };
      if (faults.delayed) setTimeout(go, this.d.delayMs()).unref();
      else go();
    }
    if (!final) return;
    // After the end: a processing callback held back, or one made again, arrives last.
    const late = this.held.get(id) ?? (faults.reordered ? this.d.seal({ ...event, status: 2, url: '' }) : null);
    this.held.delete(id);
    if (late) setTimeout(() => send(late), 50).unref();
  }
}
