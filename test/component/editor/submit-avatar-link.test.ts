// Create sends an avatar chosen from a catalogue with its link in the active connection's catalogue, not the
// link saved with the project (made on another connection, whose sandbox port has closed); an avatar link
// the user gave goes as it is. The body shown is the body sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { NConfigProvider, NDialogProvider, NMessageProvider } from 'naive-ui';
import { createProject, parseProject, type Project } from '@common/composition';

vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string) => {
    throw new Error(`not answered here: ${channel}`);
  }),
  onEvent: vi.fn(() => () => undefined),
}));

import SubmitDialog from '@/views/editor/SubmitDialog.vue';
import { useEditorAssetsStore } from '@/stores/editor-assets';
import { useEditorInsert } from '@/composables/editor-insert';
import type { MediaCache } from '@/composables/editor-media';
import { useProjectStore } from '@/stores/project';

const made = 'http://127.0.0.1:46527/catalogue/anna.mp4';

function fixture(urlFrom: 'catalogue' | undefined): Project {
  const raw = readFileSync(join(import.meta.dirname, '../../fixtures/composition/two-scenes.project.json'), 'utf8');
  const parsed = parseProject(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  const scenes = parsed.project.scenes.map((s) => ({
    ...s,
    elements: s.elements.map((e) => (e.type === 'avatar' ? { ...e, url: made, urlFrom } : e)),
  }));
  return { ...parsed.project, scenes };
}

async function shownBody(project: Project): Promise<string> {
  const pinia = createPinia();
  setActivePinia(pinia);
  const assets = useEditorAssetsStore();
  assets.useSource({
    avatars: async () => [
      {
        avatarId: 'anna',
        name: 'Anna',
        url: 'https://service.example/catalogue/anna.mp4',
        thumbnailUrl: null,
        from: 2 as const,
        gender: null,
      },
    ],
    voices: async () => [],
  });
  await assets.load();
  const Host = defineComponent(
    () => () =>
      h(NConfigProvider, null, () =>
        h(NMessageProvider, null, () =>
          h(NDialogProvider, null, () =>
            h(SubmitDialog, {
              show: true,
              project,
              baseUrl: 'https://service.example',
              webhookUrl: null,
              placement: { anchor: 'top-left', scale: 'frame' },
              checkLinks: async () => [],
            }),
          ),
        ),
      ),
  );
  const wrapper = mount(Host, { attachTo: document.body, global: { plugins: [pinia] } });
  await flushPromises();
  const text = document.querySelector('pre[aria-label="Request body"]')?.textContent ?? '';
  wrapper.unmount();
  return text;
}

describe("Create's avatar link", () => {
  it("is the active connection's for an avatar chosen from a catalogue", async () => {
    const body = await shownBody(fixture('catalogue'));
    expect(body).toContain('"url": "https://service.example/catalogue/anna.mp4"');
    expect(body).not.toContain(made);
  });

  it('is the one the user gave otherwise', async () => {
    const body = await shownBody(fixture(undefined));
    expect(body).toContain(`"url": "${made}"`);
  });
});

describe('an avatar added from the catalogue', () => {
  it("is marked as the catalogue's, so Create sends it by its id", async () => {
    setActivePinia(createPinia());
    const store = useProjectStore();
    store.load(createProject({ kind: 'avatar-video', output: '16:9-1080p', id: 'p', name: 'P' }), 'p');
    const failing = { get: () => ({ kind: 'image', status: 'error' }) } as unknown as MediaCache;
    const avatar = { avatarId: 'anna', name: 'Anna', url: made, thumbnailUrl: null, from: 2 as const, gender: null };
    const id = await useEditorInsert(store, failing).addAvatar(avatar);
    expect(store.doc.scenes[0].elements.find((e) => e.id === id)).toMatchObject({
      avatarId: 'anna',
      url: made,
      urlFrom: 'catalogue',
    });
  });
});
