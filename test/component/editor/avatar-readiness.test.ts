// The Problems panel's rule for avatars the service cannot use yet, fed as the editor feeds it.
import { ref } from 'vue';
import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge';
import { createProject, type Project, type SceneElement } from '@common/composition';
import { useAvatarReadiness } from '@/composables/editor-avatar-readiness';
import type { CatalogueAvatar } from '@/stores/editor-assets';

const avatarElement: SceneElement = {
  id: 'me',
  type: 'avatar',
  url: 'https://cdn.test/me.mp4',
  avatarId: 'mine',
  avatarFrom: 3,
  x: 0,
  y: 0,
  width: 640,
  height: 360,
  layer: 1,
  name: 'Me',
};
const withAvatar = (): Project => {
  const project = createProject({ kind: 'avatar-video', output: '16:9-720p', name: 'Check', id: 'p1' });
  return { ...project, scenes: [{ ...project.scenes[0], elements: [avatarElement] }] };
};
const listed = (processing: boolean): CatalogueAvatar => ({
  avatarId: 'mine',
  name: 'Me',
  url: avatarElement.url,
  thumbnailUrl: null,
  from: 3,
  gender: null,
  ...(processing ? { processing } : {}),
});
const upload = (phase: JobView['phase']) =>
  ({
    id: 'job-1',
    kind: 'avatar-upload',
    phase,
    connectionId: 'c1',
    request: { avatar_id: 'mine', name: 'Me', url: avatarElement.url, type: 1 },
    createdAt: 1,
    remoteStatus: null,
    error: null,
    progress: 0.4,
  }) as unknown as JobView;

describe('useAvatarReadiness', () => {
  // Fails when the ledger's view is not merged in (mutation: pass [] for the jobs to withUploadStates):
  // the list answers without a status, so only the upload job says it is still processing.
  it('flags an avatar element whose upload job is still under way, and clears once the catalogue says ready', async () => {
    const avatars = ref<CatalogueAvatar[]>([listed(false)]);
    const jobs = ref<JobView[]>([upload('processing')]);
    let reloads = 0;
    const readiness = useAvatarReadiness({
      project: withAvatar,
      avatars: () => avatars.value,
      jobs: () => jobs.value,
      connectionId: () => 'c1',
      reload: async () => void reloads++,
    });
    expect(readiness.problems.value.map((p) => [p.level, p.code, p.elementId])).toEqual([
      ['error', 'avatar-processing', 'me'],
    ]);

    jobs.value = [upload('completed')];
    expect(await readiness.recheck()).toEqual([]);
    expect(reloads).toBe(1);
  });

  it('flags an avatar the catalogue itself lists as processing', () => {
    const readiness = useAvatarReadiness({
      project: withAvatar,
      avatars: () => [listed(true)],
      jobs: () => [],
      connectionId: () => 'c1',
      reload: async () => {},
    });
    expect(readiness.problems.value[0]?.message).toMatch(
      /^Scene 1 \(.*\), element me \(Me\): the uploaded avatar is still being processed/,
    );
  });
});
