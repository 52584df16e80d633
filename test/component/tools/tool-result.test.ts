import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { JobView } from '@common/bridge';
import ToolResult from '@/views/tools/job-tools/ToolResult.vue';
import { jobView } from '../jobs/job-host';

const job = (over: Partial<JobView>): JobView =>
  jobView({
    kind: 'character-swap',
    phase: 'failed',
    connectionId: 'c',
    connectionName: 'Service',
    summary: 's',
    createdAt: 0,
    finishedAt: 0,
    ...over,
  });
const error = (code: number) => ({ code, explanation: 'general explanation', message: 'm', endpoint: null });

function shown(props: { job: JobView; kind: 'lipsync' | 'character-swap' }): string {
  return mount(ToolResult, { props: { ...props, original: 'https://x/v.mp4', originalTitle: 'Video' } }).text();
}

describe('a tool job that ended', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it.each([1103, 1213, 1221])(
    'says a character swap refused with %s needs the Pro plan, and that nothing was charged',
    (code) => {
      const text = shown({ job: job({ error: error(code) }), kind: 'character-swap' });
      expect(text).toContain('Character swap needs the Pro plan or higher on the service.');
      expect(text).toContain('Nothing was charged.');
      expect(text).not.toContain('general explanation');
    },
  );

  it('explains a 1202 lip sync refusal in plain words', () => {
    const text = shown({ job: job({ kind: 'lipsync', error: error(1202) }), kind: 'lipsync' });
    expect(text).toContain('already been lip-synced in this language');
    expect(text).toContain('give audio in another language');
  });

  it('falls back to the general explanation for other codes, and plays a completed result beside the original', () => {
    expect(shown({ job: job({ error: error(1006) }), kind: 'character-swap' })).toContain('general explanation');
    const done = mount(ToolResult, {
      props: {
        job: job({ phase: 'completed', resultUrl: 'https://x/r.mp4', chargedCredits: 30 }),
        kind: 'character-swap',
        original: 'https://x/v.mp4',
        originalTitle: 'Video',
      },
    });
    expect(done.find('[data-testid="result-video"]').attributes('src')).toBe('https://x/r.mp4');
    expect(done.find('video[aria-label="Video (original)"]').attributes('src')).toBe('https://x/v.mp4');
    expect(done.text()).toContain('charged 30 credits');
  });
});
