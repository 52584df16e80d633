// The Campaigns workspace mounted as the app shows it (its message and dialog providers, a fresh store),
// on whatever studio API the test set up with useStudioApi first.
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import CampaignsView from '@/views/campaigns/CampaignsView.vue';

export function mountCampaigns() {
  const pinia = createPinia();
  setActivePinia(pinia);
  const Root = defineComponent({
    render: () =>
      h(NMessageProvider, null, { default: () => h(NDialogProvider, null, { default: () => h(CampaignsView) }) }),
  });
  return mount(Root, { global: { plugins: [pinia] }, attachTo: document.body });
}
