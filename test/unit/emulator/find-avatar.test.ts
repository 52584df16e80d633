// Every avatar video's create asks the sandbox for its avatars. Looking through every job it holds for
// the caller's uploads grew with a campaign's jobs (34 ms a create at 9,000 jobs on a busy machine),
// holding the thread that answers requests and counts them against the rate limit; requests taken in
// together after such a hold were refused a second later. An official avatar is found without that look.
import { describe, expect, it } from 'vitest';
import { OFFICIAL_AVATARS } from '../../../electron/emulator/catalogue/definitions';
import type { EmulatorContext } from '../../../electron/emulator/context';
import { findAvatar } from '../../../electron/emulator/routes/avatar';
import type { Caller } from '../../../electron/emulator/state/accounts';
import type { JobRecord } from '../../../electron/emulator/state/types';
import { Views } from '../../../electron/emulator/views';
import { sandboxJob } from './sandbox-job';

/** A sandbox's context with these jobs, counting each time anything lists them all. */
function sandboxHolding(jobs: JobRecord[]): { ctx: EmulatorContext; listings: () => number } {
  let listings = 0;
  const held = new Proxy(Object.fromEntries(jobs.map((j) => [j._id, j])), {
    ownKeys(target) {
      listings += 1;
      return Reflect.ownKeys(target);
    },
  });
  const files = { catalogueUrl: (name: string) => `/catalogue/${name}`, resultUrl: (name: string) => `/files/${name}` };
  const ctx = {
    catalogue: { avatars: OFFICIAL_AVATARS },
    files,
    store: { state: { jobs: held } },
    views: new Views(files as never),
  } as unknown as EmulatorContext;
  return { ctx, listings: () => listings };
}

const caller = { account: { uid: 1, credits: 0 }, credential: 'k' } as Caller;
const uploaded = sandboxJob('up1', { kind: 'avatar', uid: 1, status: 3, request: { avatar_id: 'my-face', url: 'x' } });
const campaign = Array.from({ length: 50 }, (_, i) => sandboxJob(`tts${i}`));

describe("the sandbox's avatar lookup", () => {
  it('finds an official avatar by avatar_id or _id without listing the jobs it holds', () => {
    const { ctx, listings } = sandboxHolding([...campaign, uploaded]);
    const [first] = OFFICIAL_AVATARS;
    expect(findAvatar(ctx, caller, (a) => a.avatar_id === first.avatar_id)).toMatchObject({ _id: first._id, from: 2 });
    expect(findAvatar(ctx, caller, (a) => a._id === first._id)).toMatchObject({ avatar_id: first.avatar_id });
    expect(listings()).toBe(0);
  });

  it("finds the caller's uploaded avatar among the jobs, and no one else's", () => {
    const { ctx, listings } = sandboxHolding([...campaign, uploaded]);
    expect(findAvatar(ctx, caller, (a) => a.avatar_id === 'my-face')).toMatchObject({ _id: 'up1', from: 3, status: 3 });
    expect(listings()).toBe(1);
    const stranger = { ...caller, account: { uid: 2, credits: 0 } } as Caller;
    expect(findAvatar(ctx, stranger, (a) => a.avatar_id === 'my-face')).toBeUndefined();
  });
});
