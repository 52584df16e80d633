import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { nextTick, shallowRef } from 'vue';
import { createProject } from '@common/composition';
import type { JobView } from '@common/bridge';
import { useProjectStore } from '@/stores/project';
import { useVoiceover } from '@/composables/editor-voiceover';

type FakeJobs = Parameters<typeof useVoiceover>[1];

function fakeJobs() {
  const byId = shallowRef(new Map<string, JobView>());
  const submitWithConfirm = vi.fn(async () => ({ id: 'job-1', phase: 'queued' }) as JobView);
  const finish = (patch: Partial<JobView>) => {
    byId.value = new Map([['job-1', { id: 'job-1', phase: 'completed', resultUrl: null, error: null, ...patch } as JobView]]);
  };
  return { jobs: { get byId() { return byId.value; }, submitWithConfirm } as unknown as FakeJobs, submitWithConfirm, finish };
}

describe('generating a voiceover', () => {
  beforeEach(() => setActivePinia(createPinia()));

  function setup() {
    const project = useProjectStore();
    project.load(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }), 'p');
    project.setSceneVoice('scene-1', { kind: 'tts', text: 'Hello there', voiceId: 'v1', rate: '40%' });
    const errors: string[] = [];
    const fake = fakeJobs();
    const vo = useVoiceover(project, fake.jobs, (m) => errors.push(m));
    return { project, errors, vo, ...fake };
  }

  it('sends a speech job with the script, voice and speed, and puts the audio into the scene when done', async () => {
    const { project, vo, submitWithConfirm, finish } = setup();
    await vo.generate('scene-1');
    expect(submitWithConfirm).toHaveBeenCalledWith(
      { kind: 'tts', body: { input_text: 'Hello there', voice_id: 'v1', rate: '40%' }, projectId: 'p' },
      expect.any(Function),
    );
    expect(vo.isPending('scene-1')).toBe(true);
    finish({ resultUrl: 'https://cdn/x.mp3' });
    await nextTick();
    expect(project.doc.scenes[0].voice).toEqual({ kind: 'tts', text: 'Hello there', voiceId: 'v1', rate: '40%', audioUrl: 'https://cdn/x.mp3' });
    expect(vo.isPending('scene-1')).toBe(false);
  });

  it('does not attach audio for a script that changed meanwhile', async () => {
    const { project, vo, finish } = setup();
    await vo.generate('scene-1');
    project.setSceneVoice('scene-1', { kind: 'tts', text: 'Something else', voiceId: 'v1', rate: '40%' });
    finish({ resultUrl: 'https://cdn/x.mp3' });
    await nextTick();
    expect(project.doc.scenes[0].voice).toEqual({ kind: 'tts', text: 'Something else', voiceId: 'v1', rate: '40%' });
  });

  it('says why when the job fails, and refuses an empty script', async () => {
    const { project, vo, errors, finish, submitWithConfirm } = setup();
    await vo.generate('scene-1');
    finish({ phase: 'failed', error: { code: 1017, explanation: 'Audio not created', message: 'x', endpoint: null } });
    await nextTick();
    expect(errors).toEqual(['The voiceover was not generated: Audio not created']);
    project.setSceneVoice('scene-1', { kind: 'tts', text: '  ', voiceId: 'v1', rate: '40%' });
    await vo.generate('scene-1');
    expect(submitWithConfirm).toHaveBeenCalledTimes(1);
    expect(errors[1]).toMatch(/write the script/);
  });
});
