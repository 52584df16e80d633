// Problems separates what needs action from information: fourteen "uploaded when you create the video"
// notes once buried the one real warning and counted as problems. Notes are folded below, not counted.
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { Problem } from '@common/composition';
import ProblemsPanel from '@/views/editor/ProblemsPanel.vue';

const links = { total: 0, unchecked: 0, checking: false, failure: null };

/** What validateProject says of each local file the studio took in (test/unit/composition/validate.test.ts). */
const uploads = (count: number): Problem[] =>
  Array.from({ length: count }, (_, i) => ({
    level: 'info',
    code: 'local-upload',
    message: `Scene 1, element photo-${i}: a local file; it is uploaded to your storage when you create the video.`,
  }));

describe('Problems: action apart from information', () => {
  it('counts and lists only what needs action, and folds the notes below', () => {
    const notes = uploads(14);
    const warning: Problem = { level: 'warning', code: 'stretched', message: 'Scene 1, element logo: stretched' };
    const wrapper = mount(ProblemsPanel, { props: { problems: [...notes, warning], links } });
    expect(wrapper.get('.count').text()).toBe('1');
    const listed = wrapper.findAll('.p-list > li .msg').filter((m) => !m.element.closest('details'));
    expect(listed.map((m) => m.text())).toEqual(['Scene 1, element logo: stretched']);
    const folded = wrapper.get('[data-testid="problem-notes"]');
    expect(folded.get('summary').text()).toBe('For information (14)');
    expect(folded.element.hasAttribute('open')).toBe(false);
  });

  it('with notes only, says there is nothing to fix', () => {
    const notes = uploads(2);
    const wrapper = mount(ProblemsPanel, { props: { problems: notes, links: { ...links, total: 2 } } });
    expect(wrapper.get('.count').text()).toBe('none');
    expect(wrapper.text()).toContain('Ready to submit');
  });
});
