import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { shallowRef } from 'vue';
import { createProject } from '@common/composition';
import { voiceoverHash, type JobView, type StudioWindowApi } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import { useProjectStore } from '@/stores/project';
import { listenForVoiceovers, useVoiceover } from '@/composables/editor-voiceover';

type FakeJobs = Parameters<typeof useVoiceover>[1];
const script = { kind: 'tts' as const, text: 'Hello there', voiceId: 'v1', rate: '40%' };
const key = voiceoverHash(script);

function fakeJobs() {
  const list = shallowRef<JobView[]>([]);
  const submitWithConfirm = vi.fn(async (submission: { purpose?: JobView['purpose'] }) => {
    const job = {
      id: `job-${list.value.length + 1}`,
      phase: 'queued',
      createdAt: list.value.length + 1,
      purpose: submission.purpose,
      error: null,
    } as JobView;
    list.value = [...list.value, job];
    return job;
  });
  const settle = (patch: Partial<JobView>) => {
    list.value = list.value.map((j, i) => (i === list.value.length - 1 ? { ...j, ...patch } : j));
  };
  return {
    jobs: {
      // The editor's question of the host, answered with the test's list.
      hold: vi.fn(() => ({ query: { rows: list }, release: () => undefined })),
      submitWithConfirm,
    } as unknown as FakeJobs,
    submitWithConfirm,
    settle,
  };
}

/** A bridge whose only live part is the voiceover event, fired by the test as the host would. */
function fakeHostEvents() {
  const handlers = new Set<(payload: unknown) => void>();
  const api = {
    calls: {},
    events: new Proxy(
      {},
      {
        get: (_t, event) => (handler: (p: unknown) => void) =>
          event === 'projects.voiceoverReady'
            ? (handlers.add(handler), () => handlers.delete(handler))
            : () => undefined,
      },
    ),
  } as unknown as StudioWindowApi;
  useStudioApi(api);
  return (payload: { projectId: string; sceneId: string; scriptHash: string; audioUrl: string }) =>
    handlers.forEach((h) => h(payload));
}

describe('scene voiceovers', () => {
  beforeEach(() => setActivePinia(createPinia()));

  function setup() {
    const project = useProjectStore();
    project.load(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }), 'p');
    project.setSceneVoice('scene-1', script);
    const errors: string[] = [];
    const fake = fakeJobs();
    const asked: unknown[] = [];
    // The price question, answered yes: the confirmation it returns goes with the job.
    const confirmPaid = vi.fn(
      async (question: unknown) => (asked.push(question), { by: 'user' as const, credits: null }),
    );
    const vo = useVoiceover(project, fake.jobs, (m) => errors.push(m), confirmPaid);
    return { project, errors, vo, confirmPaid, asked, ...fake };
  }

  it('asks the price first, then sends a speech job whose purpose names the project, scene and script, and shows it as working', async () => {
    const { vo, submitWithConfirm, asked } = setup();
    await vo.generate('scene-1');
    expect(asked).toEqual([
      expect.objectContaining({
        items: [{ action: 'tts', body: { input_text: 'Hello there', voice_id: 'v1', rate: '40%' } }],
      }),
    ]);
    expect(submitWithConfirm).toHaveBeenCalledWith(
      {
        kind: 'tts',
        body: { input_text: 'Hello there', voice_id: 'v1', rate: '40%' },
        projectId: 'p',
        purpose: { type: 'scene-voiceover', projectId: 'p', sceneId: 'scene-1', scriptHash: key },
        confirmation: { by: 'user', credits: null },
      },
      expect.any(Function),
    );
    expect(vo.state('scene-1').value.state).toBe('working');
  });

  it('sends nothing when the user declines the price', async () => {
    const { vo, submitWithConfirm, confirmPaid } = setup();
    confirmPaid.mockResolvedValueOnce(null as never);
    await vo.generate('scene-1');
    expect(confirmPaid).toHaveBeenCalledTimes(1);
    expect(submitWithConfirm).not.toHaveBeenCalled();
  });

  it('puts the audio into the open project when the host says it is ready, whatever is selected, but never over a newer script', () => {
    const fire = fakeHostEvents();
    const project = useProjectStore();
    project.load(createProject({ kind: 'avatar-video', output: '16:9-720p', id: 'p', name: 'P' }), 'p');
    project.setSceneVoice('scene-1', script);
    const stop = listenForVoiceovers(project);
    project.select([]);
    fire({ projectId: 'p', sceneId: 'scene-1', scriptHash: key, audioUrl: 'https://cdn/x.mp3' });
    expect(project.doc.scenes[0].voice).toEqual({ ...script, audioUrl: 'https://cdn/x.mp3' });

    project.setSceneVoice('scene-1', { ...script, text: 'Something else' });
    fire({ projectId: 'p', sceneId: 'scene-1', scriptHash: key, audioUrl: 'https://cdn/y.mp3' });
    expect(project.doc.scenes[0].voice).toEqual({ ...script, text: 'Something else' });
    fire({
      projectId: 'other',
      sceneId: 'scene-1',
      scriptHash: voiceoverHash({ ...script, text: 'Something else' }),
      audioUrl: 'https://cdn/z.mp3',
    });
    expect(project.doc.scenes[0].voice).toEqual({ ...script, text: 'Something else' });
    stop();
    useStudioApi(undefined);
  });

  it('says on the scene why a voiceover failed or stalled, offers a retry, and refuses an empty script', async () => {
    const { project, vo, errors, settle, submitWithConfirm } = setup();
    await vo.generate('scene-1');
    settle({
      phase: 'stalled',
      error: { code: null, explanation: 'The service did not answer for 24 hours.', message: 'x', endpoint: null },
    });
    expect(vo.state('scene-1').value).toMatchObject({
      state: 'problem',
      reason: expect.stringMatching(/stopped checking on it: The service did not answer/),
    });
    settle({ phase: 'failed', error: { code: 1017, explanation: 'Audio not created', message: 'x', endpoint: null } });
    expect(vo.state('scene-1').value).toMatchObject({ state: 'problem', reason: 'Audio not created' });
    await vo.generate('scene-1');
    expect(submitWithConfirm).toHaveBeenCalledTimes(2);
    project.setSceneVoice('scene-1', { ...script, text: '  ' });
    await vo.generate('scene-1');
    expect(submitWithConfirm).toHaveBeenCalledTimes(2);
    expect(errors[0]).toMatch(/write the script/);
  });
});
