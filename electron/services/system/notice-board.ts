import type { Notice } from '../../common/bridge';
import type { NoticeSink } from '../host/types';

const MAX_PENDING = 20;

/**
 * Delivers notices as `notice` events when someone is listening, and keeps them (the latest few) until
 * a window or page asks for them when nobody is: a settings file moved aside at start-up must still
 * reach the user.
 */
export class NoticeBoard implements NoticeSink {
  private pending: Notice[] = [];

  constructor(
    private readonly deliver: (notice: Notice) => void,
    private readonly hasListeners: () => boolean,
  ) {}

  raise(notice: Notice): void {
    if (this.hasListeners()) {
      this.deliver(notice);
      return;
    }
    this.pending.push(notice);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
  }

  takePending(): Notice[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
