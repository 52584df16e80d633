// The music inspector: a file taken in through the editor's local-file path becomes the project's
// track; its settings, a scene's own track or none, and the loudness target are each one undo step.
import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { NConfigProvider } from 'naive-ui';
import { defineComponent, h } from 'vue';
import { addScene, createProject, musicPlans } from '@common/composition';
import { useProjectStore } from '@/stores/project';
import type { importLocalFile } from '@/bridge';
import type { MediaInfo } from '@common/composition';
import MusicInspector from '@/views/editor/MusicInspector.vue';

type TakeIn = typeof importLocalFile;

function setup(takeIn: TakeIn) {
  const store = useProjectStore();
  store.load(addScene(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' })), 'p');
  const errors: string[] = [];
  const Host = defineComponent(
    () => () =>
      h(NConfigProvider, null, () => h(MusicInspector, { importFile: takeIn, onError: (m: string) => errors.push(m) })),
  );
  return { store, errors, wrapper: mount(Host, { attachTo: document.body }) };
}

/** Picks `name` in the hidden file input, as the Add music… button's dialog would. */
async function pick(wrapper: ReturnType<typeof mount>, name: string): Promise<void> {
  const input = wrapper.get('input[aria-label="Choose a music file"]');
  Object.defineProperty(input.element, 'files', { value: [new File(['x'], name)], configurable: true });
  await input.trigger('change');
  await flushPromises();
}

const info = (kind: MediaInfo['kind'], hasAudio: boolean): MediaInfo => ({
  kind,
  durationMs: 3000,
  width: null,
  height: null,
  fps: null,
  videoCodec: null,
  audioCodec: hasAudio ? 'mp3' : null,
  hasVideo: kind !== 'audio',
  hasAudio,
  sizeBytes: 1000,
  formatName: 'x',
  format: kind === 'audio' ? 'mp3' : 'png',
  rotation: 0,
});
const takesSound: TakeIn = async (file) => ({
  url: `file:///granted/${file.name}`,
  name: file.name,
  info: info('audio', true),
});

async function commit(wrapper: ReturnType<typeof mount>, label: string, value: string): Promise<void> {
  const input = wrapper.get(`input[aria-label="${label}"]`);
  await input.setValue(value);
  await input.trigger('blur');
  await flushPromises();
}

describe('music inspector', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('adds a chosen file as the project track, under every scene, in one undo step', async () => {
    const { store, wrapper } = setup(takesSound);
    expect(wrapper.text()).toContain('Add music');
    await pick(wrapper, 'bed.mp3');
    expect(store.doc.music).toMatchObject({
      url: 'file:///granted/bed.mp3',
      name: 'bed.mp3',
      levelDb: -10,
      duckDb: 12,
      loop: true,
    });
    expect(musicPlans(store.doc).map((p) => p.sceneId)).toEqual(store.doc.scenes.map((s) => s.id));
    expect(wrapper.get('[aria-label="Music file"]').text()).toBe('bed.mp3');
    store.undo();
    expect(store.doc.music).toBeUndefined();
  });

  it('refuses a file without sound, or one the host cannot read, with the reason, and changes nothing', async () => {
    const silent: TakeIn = async (file) => ({
      url: `file:///granted/${file.name}`,
      name: file.name,
      info: info('image', false),
    });
    const first = setup(silent);
    await pick(first.wrapper, 'logo.png');
    expect(first.errors).toEqual(['logo.png has no sound to use as music.']);
    expect(first.store.doc.music).toBeUndefined();
    first.wrapper.unmount();
    const unreadable: TakeIn = async (file) =>
      Promise.reject(new Error(`${file.name} is not a picture, video or sound file`));
    const second = setup(unreadable);
    await pick(second.wrapper, 'cut.m4a');
    expect(second.errors).toEqual(['cut.m4a is not a picture, video or sound file']);
    expect(second.store.doc.music).toBeUndefined();
  });

  it("takes a phone's clip for its sound", async () => {
    const clip: TakeIn = async (file) => ({
      url: `file:///granted/${file.name}`,
      name: file.name,
      info: info('video', true),
    });
    const { store, wrapper } = setup(clip);
    await pick(wrapper, 'phone.mov');
    expect(store.doc.music?.name).toBe('phone.mov');
  });

  it('writes each setting once the edit is finished, each an undo step', async () => {
    const { store, wrapper } = setup(takesSound);
    await pick(wrapper, 'bed.mp3');
    await commit(wrapper, 'Ducking under speech', '18');
    await commit(wrapper, 'Music level under the voice', '-14');
    await commit(wrapper, 'Music fade out', '3.5');
    expect(store.doc.music).toMatchObject({ duckDb: 18, levelDb: -14, fadeOutMs: 3500 });
    store.undo();
    expect(store.doc.music?.fadeOutMs).toBe(2000);
    store.undo();
    expect(store.doc.music?.levelDb).toBe(-10);
  });

  it("gives a scene its own track or none, over the project's", async () => {
    const { store, wrapper } = setup(takesSound);
    await pick(wrapper, 'bed.mp3');
    const second = store.doc.scenes[1].id;
    store.selectScene(second);
    await flushPromises();
    await wrapper.get('input[value="none"]').setValue(true);
    await flushPromises();
    expect(store.doc.scenes[1].music).toEqual({ none: true });
    expect(wrapper.text()).toContain('No music in this scene');
    await wrapper.get('input[value="own"]').setValue(true);
    await flushPromises();
    // Its own track starts as a copy of the project's; Replace… swaps the file for this scene only.
    expect(store.doc.scenes[1].music).toMatchObject({ name: 'bed.mp3' });
    await wrapper.get('button[aria-label="Replace music file"]').trigger('click');
    await pick(wrapper, 'outro.m4a');
    expect(store.doc.scenes[1].music).toMatchObject({ name: 'outro.m4a' });
    expect(store.doc.music?.name).toBe('bed.mp3');
    expect(wrapper.text()).toContain('scene 2 only');
  });

  it('sets the loudness target by preset, or by hand', async () => {
    const { store, wrapper } = setup(takesSound);
    await pick(wrapper, 'bed.mp3');
    expect(wrapper.get('[aria-label="How music is sent"]').text()).toContain('-16 LUFS');
    store.apply((p) => ({ ...p, loudness: { preset: 'custom', lufs: -16, truePeakDb: -1.5 } }));
    await flushPromises();
    await commit(wrapper, 'Loudness in LUFS', '-20');
    expect(store.doc.loudness).toEqual({ preset: 'custom', lufs: -20, truePeakDb: -1.5 });
    expect(wrapper.get('[aria-label="How music is sent"]').text()).toContain('-20 LUFS');
  });
});
