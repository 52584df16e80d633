// Each view that shows jobs asks the host for a filtered page of what it shows (never jobs.list), and
// the host's news updates what it shows: the Tools' inputs and uploads, the Voices' recent list, the
// editor's asset panel and scene voiceovers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, effectScope, h } from 'vue';
import { NDialogProvider, NMessageProvider, NSelect } from 'naive-ui';
import { voiceoverHash } from '@common/bridge';
import { MAX_PAGE_JOBS } from '@common/bridge/job-pages';
import { createProject } from '@common/composition';
import { useStudioApi } from '@/bridge';
import MediaInput from '@/views/tools/job-tools/MediaInput.vue';
import AvatarUpload from '@/views/tools/avatars/AvatarUpload.vue';
import VoicesView from '@/views/voices/VoicesView.vue';
import AssetsPanel from '@/views/editor/AssetsPanel.vue';
import { useEditorAssetsStore } from '@/stores/editor-assets';
import { useJobsStore } from '@/stores/jobs';
import { useProjectStore } from '@/stores/project';
import { useVoiceover } from '@/composables/editor-voiceover';
import { jobHost, jobView } from './job-host';

const DAY = 86_400_000;

/** Mounts a view inside the providers the app gives it. */
function mountView(view: unknown, props: Record<string, unknown> = {}, stubs: Record<string, boolean> = {}) {
  const Root = defineComponent(
    () => () => h(NMessageProvider, () => h(NDialogProvider, () => h(view as never, props))),
  );
  return mount(Root, { global: { stubs }, attachTo: document.body });
}

describe('views showing jobs', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => {
    document.body.innerHTML = '';
    useStudioApi(undefined);
  });

  it('Tools: a media input offers the newest completed results of its kind, from a page, and one that completes joins them', async () => {
    const live = Date.now() + DAY;
    const host = jobHost([
      jobView({
        id: 'v1',
        kind: 'avatar-video',
        summary: 'First video',
        resultUrl: 'https://r/1.mp4',
        createdAt: 1,
        expiresAt: live,
      }),
      jobView({
        id: 'gone',
        kind: 'avatar-video',
        summary: 'Expired',
        resultUrl: 'https://r/0.mp4',
        createdAt: 2,
        expiresAt: 5,
      }),
      jobView({ id: 's1', kind: 'tts', summary: 'Speech', resultUrl: 'https://r/s.mp3', createdAt: 3 }),
      jobView({ id: 'run', kind: 'lipsync', phase: 'processing', summary: 'Lip sync', createdAt: 4, progress: 0.5 }),
    ]);
    const wrapper = mountView(MediaInput, { label: 'Video', kind: 'video', accept: 'video/*', modelValue: '' });
    await flushPromises();
    const [asked] = host.asked();
    expect(asked.filter?.phases).toEqual(['completed']);
    expect(asked.filter?.kinds).toContain('avatar-video');
    expect(asked.filter?.kinds).not.toContain('tts');
    expect(asked.limit).toBeLessThanOrEqual(MAX_PAGE_JOBS);
    const options = () => (wrapper.findComponent(NSelect).props('options') as { value: string }[]).map((o) => o.value);
    expect(options()).toEqual(['https://r/1.mp4']);
    host.push(
      'jobs.changed',
      jobView({ id: 'run', kind: 'lipsync', summary: 'Lip sync', createdAt: 4, resultUrl: 'https://r/l.mp4' }),
    );
    await flushPromises();
    expect(options()).toEqual(['https://r/l.mp4', 'https://r/1.mp4']);
    expect(host.askedForEveryJob()).toBe(false);
  });

  it('Tools: the upload list is the newest avatar uploads, from a page, following each to ready', async () => {
    const upload = (id: string, createdAt: number, phase: 'queued' | 'completed' = 'completed') =>
      jobView({ id, kind: 'avatar-upload', phase, createdAt, request: { avatar_id: id, name: `Avatar ${id}` } });
    const host = jobHost([
      ...Array.from({ length: 10 }, (_, i) => upload(`u${i}`, i)),
      jobView({ id: 'tts', createdAt: 99 }),
    ]);
    const wrapper = mountView(AvatarUpload);
    await flushPromises();
    // (Its media input asks for its own choices too.)
    expect(host.asked()).toContainEqual({ filter: { kinds: ['avatar-upload'] }, limit: 8 });
    const shown = () => wrapper.findAll('[data-upload]').map((li) => li.attributes('data-upload'));
    expect(shown()).toEqual(['u9', 'u8', 'u7', 'u6', 'u5', 'u4', 'u3', 'u2']);
    host.push('jobs.changed', upload('new', 20, 'queued'));
    await flushPromises();
    expect(shown()[0]).toBe('new');
    expect(shown()).toHaveLength(8);
    expect(wrapper.find('[data-upload="new"]').text()).toContain('Queued');
    host.push('jobs.changed', upload('new', 20, 'completed'));
    await flushPromises();
    expect(wrapper.find('[data-upload="new"]').text()).toContain('Ready');
    expect(host.askedForEveryJob()).toBe(false);
  });

  it('Voices: the recent list is the newest speech and clones made there, from a page, and a new one is listed at once', async () => {
    const host = jobHost(
      [
        jobView({ id: 'a', createdAt: 1, request: { input_text: 'First words', voice_id: 'v1' } }),
        jobView({
          id: 'scene',
          createdAt: 2,
          projectId: 'p',
          purpose: { type: 'scene-voiceover', projectId: 'p', sceneId: 's', scriptHash: 'h' },
          request: { input_text: 'A scene', voice_id: 'v1' },
        }),
        jobView({ id: 'video', kind: 'avatar-video', createdAt: 3 }),
      ],
      { 'catalogue.voices': () => [], 'settings.get': () => ({ favouriteVoices: [] }) },
    );
    const stubs = { TtsPanel: true, ClonePanel: true, BatchPanel: true, VoiceLibrary: true };
    const wrapper = mountView(VoicesView, {}, stubs);
    await flushPromises();
    const [asked] = host.asked();
    expect(asked.filter?.kinds?.slice().sort()).toEqual(['tts', 'voice-clone']);
    expect(asked.filter?.phases).toBeUndefined();
    const scripts = () => wrapper.findAll('[data-testid="recent-voiceovers"] .script').map((s) => s.text());
    expect(scripts()).toEqual(['“First words”']);
    host.push(
      'jobs.changed',
      jobView({ id: 'b', phase: 'queued', createdAt: 5, request: { input_text: 'Just sent' } }),
    );
    await flushPromises();
    expect(scripts()).toEqual(['“Just sent”', '“First words”']);
    expect(wrapper.find('[data-testid="recent-voiceovers"]').text()).toContain('queued');
    expect(host.askedForEveryJob()).toBe(false);
  });

  it('Editor: the asset panel marks an avatar whose upload is under way, from a page of the uploads under way, until it is ready', async () => {
    const uploading = jobView({
      id: 'up',
      kind: 'avatar-upload',
      phase: 'processing',
      request: { avatar_id: 'anna2', name: 'Anna' },
      progress: 0.3,
    });
    const host = jobHost([uploading, jobView({ id: 'done', kind: 'avatar-upload', request: { avatar_id: 'old' } })]);
    useEditorAssetsStore().avatars = [
      { avatarId: 'anna2', name: 'Anna', url: '', thumbnailUrl: null, from: 3, gender: null, processing: false },
    ];
    const wrapper = mountView(AssetsPanel);
    await flushPromises();
    expect(host.asked()).toEqual([
      { filter: { kinds: ['avatar-upload'], phases: ['submitting', 'queued', 'processing'] }, limit: 500 },
    ]);
    expect(wrapper.find('[aria-label="Avatar Anna, still processing"]').exists()).toBe(true);
    host.push('jobs.changed', { ...uploading, phase: 'completed', progress: 1 });
    await flushPromises();
    expect(wrapper.find('[aria-label="Add avatar Anna"]').exists()).toBe(true);
    expect(host.askedForEveryJob()).toBe(false);
  });

  it("Editor: a scene's voiceover state comes from a page of the project's speech jobs, and follows the host's news", async () => {
    const project = useProjectStore();
    project.load(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }), 'p');
    const voice = { kind: 'tts' as const, text: 'Hello there', voiceId: 'v1', rate: '40%' };
    project.setSceneVoice('scene-1', voice);
    const purpose = {
      type: 'scene-voiceover' as const,
      projectId: 'p',
      sceneId: 'scene-1',
      scriptHash: voiceoverHash(voice),
    };
    const host = jobHost([
      jobView({ id: 'other', projectId: 'q', purpose: { ...purpose, projectId: 'q' }, phase: 'failed' }),
    ]);
    const scope = effectScope();
    const state = scope.run(() =>
      useVoiceover(
        project,
        useJobsStore(),
        () => undefined,
        async () => null,
      ).state('scene-1'),
    )!;
    await flushPromises();
    expect(host.asked()).toEqual([{ filter: { projectId: 'p', kinds: ['tts'] }, limit: 200 }]);
    expect(state.value.state).toBe('none');
    const job = jobView({ id: 'vo', projectId: 'p', purpose, phase: 'processing', createdAt: 5, progress: 0.2 });
    host.push('jobs.changed', job);
    expect(state.value.state).toBe('working');
    host.push('jobs.changed', {
      ...job,
      phase: 'failed',
      error: { code: 1, message: 'm', explanation: 'No voice', endpoint: null },
    });
    expect(state.value).toMatchObject({ state: 'problem', reason: 'No voice' });
    scope.stop();
    expect(host.askedForEveryJob()).toBe(false);
  });
});
