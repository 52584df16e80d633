import { defineComponent, h } from 'vue';
import { mount } from '@vue/test-utils';
import { NConfigProvider, NMessageProvider } from 'naive-ui';
import type { useProjectStore } from '@/stores/project';
import ElementInspector from '@/views/editor/ElementInspector.vue';

/** The inspector of the store's selected element, read again from the store on every render (as the editor view does). */
export function mountInspector(store: ReturnType<typeof useProjectStore>) {
  const Host = defineComponent(
    () => () =>
      h(NConfigProvider, null, () =>
        h(NMessageProvider, null, () =>
          store.selectedElements[0] ? h(ElementInspector, { element: store.selectedElements[0] }) : null,
        ),
      ),
  );
  return mount(Host, { attachTo: document.body });
}
