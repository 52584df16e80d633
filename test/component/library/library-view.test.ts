import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { JobView } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { useJobsStore } from '@/stores/jobs';
import { useLibraryPagesStore } from '@/stores/library-pages';
import { PAGE_ROWS } from '@/views/library/job-window';
import { mountLibraryWith } from './fake-api';

const now = Date.now();
function job(over: Partial<JobView>): JobView {
  return {
    id: 'job-1',
    kind: 'tts',
    phase: 'queued',
    remoteId: 'r1',
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    projectId: null,
    summary: 'Speech · voice ava · "Hello"',
    request: { input_text: 'Hello' },
    createdAt: now - 65_000,
    finishedAt: null,
    expiresAt: now + 7 * 24 * 3600_000 - 65_000,
    remoteStatus: 1,
    resultUrl: null,
    costEstimate: null,
    chargedCredits: null,
    error: null,
    answer: null,
    polls: 0,
    purpose: { type: 'plain' },
    progress: 0.05,
    ...over,
  };
}

function mountLibrary(jobs: JobView[], extra: Record<string, (...args: unknown[]) => unknown> = {}) {
  return mountLibraryWith({ 'jobs.list': () => jobs, 'jobs.remove': () => undefined, ...extra });
}

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

describe('Library jobs panel', () => {
  it('lists jobs with kind, status, age, time left and cost, and follows change events', async () => {
    const { wrapper, fake } = mountLibrary([
      job({}),
      job({
        id: 'job-2',
        kind: 'character-swap',
        phase: 'completed',
        summary: 'Character swap · animate',
        resultUrl: 'https://x.test/r.mp4',
        chargedCredits: 30,
        progress: 1,
        createdAt: now - 10_000,
      }),
    ]);
    await flushPromises();
    const text = document.body.textContent ?? '';
    expect(text).toContain('Speech');
    expect(text).toContain('Queued');
    expect(text).toContain('Character swap');
    expect(text).toContain('Completed');
    expect(text).toContain('30 credits');
    expect(text).toMatch(/6 d 23 h left/);
    expect(text).toContain('1 min');

    fake.push(
      'jobs.changed',
      job({
        phase: 'failed',
        progress: 1,
        error: {
          code: 1104,
          endpoint: '/x',
          message: 'code 1104',
          explanation: 'Not enough credits for this request.',
        },
      }),
    );
    await flushPromises();
    expect(document.body.textContent).toContain('Failed');
    expect(wrapper.findAll('[data-job-id]').length).toBe(2);
    // The Library asks for pages of a bounded size and totals, never for every job.
    expect(fake.calls.some((c) => c.channel === 'jobs.list')).toBe(false);
    const pageSizes = fake.calls
      .filter((c) => c.channel === 'jobs.page')
      .map((c) => (c.args[0] as { limit: number }).limit);
    expect(pageSizes.length).toBeGreaterThan(0);
    expect(Math.max(...pageSizes)).toBeLessThanOrEqual(PAGE_ROWS);
  });

  it('shows details with the human explanation and removes a job from the list', async () => {
    const unknown = job({
      phase: 'outcome-unknown',
      remoteId: null,
      progress: 0,
      error: {
        code: null,
        endpoint: '/api/open/v3/audio/create',
        message: 'network',
        explanation:
          "The service may or may not have created (and charged) this job. Check the jobs and credit history in the service's dashboard.",
      },
    });
    const { wrapper, fake } = mountLibrary([unknown]);
    await flushPromises();
    await wrapper.find('[data-job-id="job-1"]').trigger('click');
    await flushPromises();
    const details = document.querySelector('[data-testid="job-problem"]');
    expect(details?.textContent).toContain('Not known whether the service received this job');
    expect(details?.textContent).toContain("service's dashboard");
    expect(document.body.textContent).toContain('— (never received)');

    await useLibraryPagesStore().remove('job-1');
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'jobs.remove').map((c) => c.args)).toEqual([['job-1']]);
    expect(wrapper.findAll('[data-job-id]').length).toBe(0);
  });

  it("says where each job's charge came from: the service's figure, the balance, the published price or an estimate", async () => {
    const { wrapper } = mountLibrary([
      job({ id: 'served', chargedCredits: 30, chargeSource: 'service', createdAt: now - 1 }),
      job({ id: 'guessed', chargedCredits: 3, chargeSource: 'estimate', createdAt: now - 2 }),
      job({ id: 'measured', chargedCredits: 1, chargeSource: 'balance', createdAt: now - 3 }),
      job({ id: 'priced', chargedCredits: 10, chargeSource: 'published', createdAt: now - 4 }),
    ]);
    await flushPromises();
    // The table marks an estimate as one; the details name the source.
    const cost = (id: string) => wrapper.find(`[data-job-id="${id}"] td[data-col-key="cost"]`).text();
    expect([cost('served'), cost('guessed'), cost('measured')]).toEqual(['30 credits', '~3 credits', '1 credit']);
    const details = async (id: string) => {
      await wrapper.find(`[data-job-id="${id}"]`).trigger('click');
      await flushPromises();
      return document.querySelector('[data-testid="job-charge"]')?.textContent;
    };
    expect(await details('served')).toBe("30 credits (the service's own figure)");
    expect(await details('guessed')).toBe("~3 credits (an estimate from this connection's recent charges)");
    expect(await details('measured')).toBe('1 credit (the balance before and after its create)');
    expect(await details('priced')).toBe('10 credits (the published price)');
  });

  it('filters to problems and searches requests', async () => {
    const { wrapper } = mountLibrary([
      job({ id: 'a', summary: 'Speech · alpha' }),
      job({ id: 'b', summary: 'Speech · beta', phase: 'failed', progress: 1 }),
    ]);
    await flushPromises();
    const problems = wrapper.findAll('label').find((l) => l.text().startsWith('Problems'));
    expect(problems?.text()).toBe('Problems 1');
    await problems?.find('input').setValue(true);
    await flushPromises();
    expect(wrapper.findAll('[data-job-id]').map((r) => r.attributes('data-job-id'))).toEqual(['b']);
  });

  it('asks before sending a duplicate and sends it only when confirmed', async () => {
    const existing = job({});
    let sent = 0;
    mountLibrary([], {
      'jobs.submit': (submission) => {
        const s = submission as { confirmDuplicate?: boolean };
        if (!s.confirmDuplicate)
          return { status: 'duplicate', existing, message: 'The same speech request went to "Sandbox" 2 minutes ago.' };
        sent += 1;
        return { status: 'submitted', job: job({ id: 'job-9' }) };
      },
    });
    const store = useJobsStore();
    const asked: string[] = [];
    const declined = await store.submitWithConfirm(
      { kind: 'tts', body: { input_text: 'Hello', voice_id: 'ava' }, confirmation: { by: 'user', credits: null } },
      async (message) => (asked.push(message), false),
    );
    expect(declined).toBeNull();
    expect(sent).toBe(0);
    const accepted = await store.submitWithConfirm(
      { kind: 'tts', body: { input_text: 'Hello', voice_id: 'ava' }, confirmation: { by: 'user', credits: null } },
      async () => true,
    );
    expect(accepted?.id).toBe('job-9');
    expect(sent).toBe(1);
    expect(asked[0]).toMatch(/2 minutes ago/);
  });
});
