import { describe, expect, it } from 'vitest';
import { StatusReads } from '@/views/campaigns/status-reads';

/**
 * A page's status reads on a clock the test moves: each read takes `readMs` of it, and timers fire only
 * when the test moves the clock past them, so the verdicts do not depend on the machine.
 */
function page(readMs = 200) {
  let now = 0;
  const timers: { at: number; run: () => void }[] = [];
  const reads: { id: string; at: number }[] = [];
  const shown: string[] = [];
  let answer: ((value: string) => void) | null = null;
  const statusReads = new StatusReads<string>({
    read(id) {
      reads.push({ id, at: now });
      return new Promise((resolve) => {
        answer = (value) => {
          now += readMs;
          answer = null;
          resolve(value);
        };
      });
    },
    shown: (id, status) => void shown.push(`${id}:${status}`),
    failed: (error) => {
      throw error;
    },
    clock: () => now,
    setTimer(run, ms) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return timer as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer(timer) {
      timers.splice(timers.indexOf(timer as unknown as (typeof timers)[number]), 1);
    },
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    statusReads,
    reads,
    shown,
    /** Answers the read under way, and lets the page carry on. */
    async answer(value: string) {
      expect(answer, 'a read is under way').not.toBeNull();
      answer?.(value);
      await settle();
    },
    /** Moves the clock to `at`, firing the timers due by then. */
    async advanceTo(at: number) {
      now = at;
      for (const timer of timers.filter((t) => t.at <= at)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
      await settle();
    },
  };
}

describe('the Campaigns page reads a running campaign at a pace that follows what a read costs', () => {
  it('after a 200 ms read, a change is read 5.8 s later (29 times the read), and every change meanwhile shares that read', async () => {
    const p = page(200);
    void p.statusReads.now('c1');
    await p.answer('first');
    expect(p.shown).toEqual(['c1:first']);
    // Rows end several times a second.
    for (let i = 0; i < 20; i += 1) p.statusReads.changed('c1');
    expect(p.reads).toHaveLength(1);
    await p.advanceTo(200 + 5_799);
    expect(p.reads).toHaveLength(1);
    await p.advanceTo(200 + 5_800);
    expect(p.reads).toEqual([
      { id: 'c1', at: 0 },
      { id: 'c1', at: 6_000 },
    ]);
    await p.answer('second');
    expect(p.shown).toEqual(['c1:first', 'c1:second']);
  });

  it('a change during a read is read after the pause, never dropped: the page ends on the newest status', async () => {
    const p = page(200);
    void p.statusReads.now('c1');
    p.statusReads.changed('c1');
    await p.answer('under way');
    expect(p.reads).toHaveLength(1);
    await p.advanceTo(200 + 5_800);
    expect(p.reads).toHaveLength(2);
    await p.answer('finished');
    expect(p.shown.at(-1)).toBe('c1:finished');
  });

  it('a fast read still leaves a second between reads of changes', async () => {
    const p = page(5);
    void p.statusReads.now('c1');
    await p.answer('a');
    p.statusReads.changed('c1');
    await p.advanceTo(5 + 999);
    expect(p.reads).toHaveLength(1);
    await p.advanceTo(5 + 1_000);
    expect(p.reads).toHaveLength(2);
  });

  it('what the user asks for is read at once, during a pause too, and takes the place of the change that waited', async () => {
    const p = page(200);
    void p.statusReads.now('c1');
    await p.answer('a');
    p.statusReads.changed('c1');
    void p.statusReads.now('c2');
    expect(p.reads.map((r) => r.id)).toEqual(['c1', 'c2']);
    await p.answer('b');
    await p.advanceTo(60_000);
    expect(p.reads).toHaveLength(2);
    expect(p.shown).toEqual(['c1:a', 'c2:b']);
  });

  it('an ask during a read is read right after it', async () => {
    const p = page(200);
    void p.statusReads.now('c1');
    void p.statusReads.now('c2');
    await p.answer('a');
    expect(p.reads.map((r) => r.id)).toEqual(['c1', 'c2']);
    await p.answer('b');
    expect(p.shown).toEqual(['c1:a', 'c2:b']);
  });

  it('a page that is gone reads nothing more', async () => {
    const p = page(200);
    void p.statusReads.now('c1');
    await p.answer('a');
    p.statusReads.changed('c1');
    p.statusReads.stop();
    await p.advanceTo(60_000);
    expect(p.reads).toHaveLength(1);
  });
});
