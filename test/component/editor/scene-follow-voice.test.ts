// The scene panel shows whether the scene's length follows its voice (its own choice, the project's, or
// a campaign script's default) and sets the scene's own choice as one undo step.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider, NDialogProvider, NMessageProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import { createProject } from '@common/composition';
import { useStudioApi } from '@/bridge';
import { useProjectStore } from '@/stores/project';
import SceneInspector from '@/views/editor/SceneInspector.vue';
import { fakeApi } from '../library/fake-api';

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

function setup(script: string) {
  useStudioApi(fakeApi({}).api);
  const store = useProjectStore();
  store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
  store.setSceneVoice(store.currentScene.id, { kind: 'tts', text: script, voiceId: 'v1', rate: '50%' });
  const Host = defineComponent(
    () => () =>
      h(NConfigProvider, null, () =>
        h(NMessageProvider, null, () => h(NDialogProvider, null, () => h(SceneInspector))),
      ),
  );
  return { store, wrapper: mount(Host, { attachTo: document.body }) };
}

const toggle = (wrapper: ReturnType<typeof mount>) => wrapper.get('[aria-label="Scene length follows its voice"]');

describe("the scene panel's length option", () => {
  beforeEach(() => setActivePinia(createPinia()));

  it("is off for a plain script, and the scene's own choice turns it on", async () => {
    const { store, wrapper } = setup('Welcome to the studio.');
    expect(toggle(wrapper).attributes('aria-checked')).toBe('false');
    expect(wrapper.get('[data-testid="scene-follow-note"]').text()).toContain('Fixed length');
    await toggle(wrapper).trigger('click');
    await flushPromises();
    expect(store.currentScene.followVoice).toBe(true);
    expect(toggle(wrapper).attributes('aria-checked')).toBe('true');
    store.undo();
    await flushPromises();
    expect(store.currentScene.followVoice).toBeUndefined();
  });

  it('is on for a campaign script with a {{variable}}, and says why', async () => {
    const { store, wrapper } = setup('Hi {{first name}}!');
    expect(toggle(wrapper).attributes('aria-checked')).toBe('true');
    expect(wrapper.get('[data-testid="scene-follow-note"]').text()).toContain('changes with each row');
    await toggle(wrapper).trigger('click');
    await flushPromises();
    expect(store.currentScene.followVoice).toBe(false);
  });
});
