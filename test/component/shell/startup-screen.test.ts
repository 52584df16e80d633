import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { StartupState } from '@common/bridge';
import { clock, startupWords } from '@/startup/startup-words';
import { waitForStartup } from '@/startup/wait-for-startup';

const state = (over: Partial<StartupState>): StartupState => ({
  ready: false,
  records: null,
  elapsedMs: 0,
  failure: null,
  ...over,
});

/** A host answering the given states in turn (the last one again after that), and waits that end at once. */
function host(states: StartupState[]) {
  let asked = 0;
  return {
    ask: async () => states[Math.min(asked++, states.length - 1)] as StartupState,
    wait: async () => undefined,
    asked: () => asked,
  };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the startup words', () => {
  it('say what is under way, how far, and fill the bar by bytes read or steps done', () => {
    expect(startupWords(state({ records: { stage: 'upgrading', step: 6, steps: 8 } }))).toMatchObject({
      title: 'Upgrading your records (step 6 of 8)…',
      fraction: 5 / 8,
    });
    expect(startupWords(state({ records: { stage: 'journal', rows: 1_234_567, fraction: 0.426 } }))).toMatchObject({
      detail: '42% of the old journal read, 1,234,567 changes taken in.',
      fraction: 0.426,
    });
    expect(startupWords(state({ records: { stage: 'indexes', step: 3, steps: 17 } })).title).toBe(
      'Indexing your jobs (3 of 17)…',
    );
    expect(startupWords(state({ failure: 'the disk is full' }))).toMatchObject({
      failed: true,
      detail: 'the disk is full',
    });
  });

  it('count the saved copies and storage links taken in, say while their file is read, and fill the bar by rows of runs', () => {
    expect(startupWords(state({ records: { stage: 'copies', done: 0, total: 0 } }))).toMatchObject({
      title: 'Taking in your saved copies from the earlier version…',
      detail: 'Reading the old download queue.',
      fraction: 0,
    });
    expect(startupWords(state({ records: { stage: 'copies', done: 100_000, total: 333_000 } }))).toMatchObject({
      detail: '100,000 of 333,000 copies taken in.',
      fraction: 100_000 / 333_000,
    });
    expect(startupWords(state({ records: { stage: 'links', done: 5_000, total: 20_000 } }))).toMatchObject({
      title: 'Taking in your storage links from the earlier version…',
      detail: '5,000 of 20,000 links taken in.',
      fraction: 0.25,
    });
    expect(startupWords(state({ records: { stage: 'runs', rows: 42_000, fraction: 0.42 } }))).toMatchObject({
      title: 'Taking in your earlier campaigns and batches…',
      detail: '42% of their files read, 42,000 rows taken in.',
      fraction: 0.42,
    });
  });

  it('read elapsed time as a clock', () => {
    expect([clock(0), clock(7_900), clock(83_000), clock(3_725_000)]).toEqual(['0:00', '0:07', '1:23', '1:02:05']);
  });
});

describe('waitForStartup', () => {
  it('shows nothing when the host is ready at once', async () => {
    const target = document.body.appendChild(document.createElement('div'));
    await waitForStartup(target, host([state({ ready: true })]));
    expect(target.innerHTML).toBe('');
  });

  // Fails when the page mounts the studio before the records are open (mutation: return after the first answer).
  it('shows the bar with each answer until the host is ready, then leaves the page to the studio', async () => {
    const target = document.body.appendChild(document.createElement('div'));
    const answers = host([
      state({ records: { stage: 'journal', rows: 1_000, fraction: 0.1 }, elapsedMs: 2_000 }),
      state({ records: { stage: 'journal', rows: 9_000, fraction: 0.9 }, elapsedMs: 9_000 }),
      state({ ready: true, elapsedMs: 12_000 }),
    ]);
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const detail = target.querySelector('[data-testid="startup-detail"]')?.textContent;
      if (detail && seen.at(-1) !== detail) seen.push(detail);
    });
    observer.observe(target, { subtree: true, childList: true, characterData: true });
    await waitForStartup(target, answers);
    await flushPromises();
    observer.disconnect();
    expect(seen).toEqual([
      '10% of the old journal read, 1,000 changes taken in.',
      '90% of the old journal read, 9,000 changes taken in.',
    ]);
    expect(answers.asked()).toBe(3);
    expect(target.querySelector('[data-testid="startup"]')).toBeNull();
  });

  it('keeps a failed start on the screen, saying why', async () => {
    const target = document.body.appendChild(document.createElement('div'));
    let ended = false;
    void waitForStartup(target, host([state({ failure: 'the disk is full' })])).then(() => (ended = true));
    await flushPromises();
    expect(target.textContent).toContain("The studio's records could not be opened");
    expect(target.textContent).toContain('the disk is full');
    expect(ended).toBe(false);
  });
});
