import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';
import type { Caller } from '../state/accounts';
import type { LiveRecord } from '../state/types';
import { Code, RecordStatus } from '../../common/api';

const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

/**
 * Live face swap sessions: the sandbox hands out channel credentials and tracks the session's life
 * (1 queuing, then 2 once "the processing side joined"); no real-time media flows.
 */
export function liveRoutes(app: FastifyInstance, ctx: EmulatorContext): { resume(): void; close(): void } {
  const timers = new Set<NodeJS.Timeout>();
  const view = (s: LiveRecord) => ({
    _id: s._id,
    faceswap_status: s.status,
    front_user_id: s.front_user_id,
    algorithm_user_id: s.algorithm_user_id,
    front_rtc_token: s.front_rtc_token,
    channel_id: s.channel_id,
    app_id: '',
  });
  const open = (caller: Caller, id: string): LiveRecord => {
    const s = ctx.store.state.live[id];
    if (!s || s.uid !== caller.account.uid)
      throw new ApiError(Code.LiveSessionNotFound, `liveAvatar session "${id}" does not exist`);
    if (s.closed) throw new ApiError(Code.LiveClosed, `liveAvatar session "${id}" is closed`);
    return s;
  };
  const startLater = (s: LiveRecord) => {
    const t = setTimeout(
      () => {
        timers.delete(t);
        if (!s.closed && s.status === RecordStatus.Queueing) {
          s.status = 2;
          ctx.store.changed();
        }
      },
      Math.min(1000, ctx.options.jobSeconds * 250),
    );
    timers.add(t);
  };

  defineEndpoint(app, ctx, 'liveCreate', async (body, caller) => {
    ctx.accounts.charge(caller.account, FLAT_PRICES.liveCreate, Code.InsufficientCredit);
    const now = ctx.options.now();
    const s: LiveRecord = {
      _id: ctx.store.newId(now),
      uid: caller.account.uid,
      status: RecordStatus.Queueing,
      closed: false,
      createdAt: now,
      sourceImage: body.sourceImage,
      front_user_id: digits(9),
      algorithm_user_id: digits(9),
      front_rtc_token: `sandbox-rtc-${randomBytes(16).toString('hex')}`,
      channel_id: `sandbox_live_${randomBytes(6).toString('hex')}`,
    };
    ctx.store.state.live[s._id] = s;
    ctx.store.changed();
    startLater(s);
    return view(s);
  });

  defineEndpoint(app, ctx, 'liveUpdate', async (body, caller) => {
    const s = open(caller, body._id);
    s.sourceImage = body.sourceImage;
    ctx.store.changed();
    return undefined;
  });

  defineEndpoint(app, ctx, 'liveClose', async (body, caller) => {
    const s = open(caller, body._id);
    s.closed = true;
    s.status = 3;
    ctx.store.changed();
    return undefined;
  });

  return {
    resume: () => {
      for (const s of Object.values(ctx.store.state.live))
        if (!s.closed && s.status === RecordStatus.Queueing) startLater(s);
    },
    close: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
