// The Campaigns page's template picker offers the templates saved with "Save as template" beside the
// projects, read again when the list opens, so one saved a moment ago is there at once (not only after
// File › Save of its project too). Picking one makes it a project of the library once, as a new project
// from a template is made, and the campaign reads that.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { NSelect } from 'naive-ui';
import type { TemplateSummary } from '@common/bridge/templates';
import { useStudioApi } from '@/bridge';
import { mountCampaigns } from './mount-campaigns';
import { fakeApi } from '../library/fake-api';

afterEach(() => useStudioApi(undefined));

const SAVED: TemplateSummary = {
  id: 'user:spring-greeting-0a1b2c3d',
  name: 'Spring greeting',
  description: '',
  starter: false,
  kind: 'avatar-video',
  output: { width: 1920, height: 1080 },
  scenes: 2,
  durationMs: 8000,
  thumbnail: null,
};
const STARTER: TemplateSummary = {
  ...SAVED,
  id: 'starter:product-explainer',
  name: 'Product explainer',
  starter: true,
};

type Group = { label: string; children: { label: string; value: string }[] };

describe('the Campaigns template picker', () => {
  it('lists a template saved since the page opened as soon as the list opens, and picks it as a project once', async () => {
    const templates: TemplateSummary[] = [STARTER];
    const fake = fakeApi({
      'projects.listRecent': () => [{ id: 'p1', name: 'Summer offer' }],
      'templates.list': () => ({ templates: [...templates], unreadable: [] }),
      'projects.create': () => ({
        project: {},
        summary: { id: 'p-spring', name: 'Spring greeting', updatedAt: 1, location: 'Project library' },
        recovered: false,
      }),
      'downloads.preferences': () => ({ folder: null, canChooseFolder: false }),
      'downloads.list': () => [],
      'downloads.totals': () => ({}),
      'campaigns.list': () => [],
      'connections.balance': () => ({ credit: 500 }),
      'connections.list': () => ({ connections: [], activeId: 'sandbox' }),
    });
    useStudioApi(fake.api);
    const wrapper = mountCampaigns();
    await flushPromises();
    const picker = wrapper.getComponent(NSelect);

    // "Save as template" in the editor, then the picker opened: the template is there, the starter is not.
    templates.push(SAVED);
    picker.vm.$emit('update:show', true);
    await flushPromises();
    const groups = picker.props('options') as Group[];
    expect(groups.map((g) => [g.label, g.children.map((c) => c.label)])).toEqual([
      ['Projects', ['Summer offer']],
      ['Saved templates', ['Spring greeting']],
    ]);

    const value = groups[1].children[0].value;
    picker.vm.$emit('update:value', value);
    await flushPromises();
    const made = fake.calls.filter((c) => c.channel === 'projects.create');
    expect(made.map((c) => c.args[0])).toEqual([
      expect.objectContaining({ template: SAVED.id, name: 'Spring greeting' }),
    ]);
    expect(wrapper.getComponent(NSelect).props('value')).toBe('p-spring');
    // Picked again, it is the same project: no second copy in the library.
    wrapper.getComponent(NSelect).vm.$emit('update:value', value);
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'projects.create')).toHaveLength(1);
  });
});
