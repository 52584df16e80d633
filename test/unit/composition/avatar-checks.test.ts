import { describe, expect, it } from 'vitest';
import { avatarReadinessProblems, type AvatarReadiness } from '@common/composition';
import { loadProject } from './helpers';

const project = loadProject('two-scenes.project.json');
const states = (entries: Record<string, AvatarReadiness>) => (id: string) => entries[id];

describe('avatarReadinessProblems', () => {
  // Fails when the rule is dropped or only warns (mutation: skip 'processing', or level 'warning'):
  // a paid job with an avatar still processing is refused by the service.
  it('is an error, on the element, when an avatar is still processing', () => {
    expect(avatarReadinessProblems(project, states({ anna: 'processing' }))).toEqual([
      {
        level: 'error',
        code: 'avatar-processing',
        message:
          'Scene 1 (Intro), element presenter: the uploaded avatar is still being processed by the service; a job with it would fail. Send it once Tools → Avatars shows it Ready.',
        sceneIndex: 0,
        sceneId: 'intro',
        elementId: 'presenter',
      },
    ]);
  });

  // Fails when an unknown avatar is treated as not ready (mutation: `if (state === 'ready') continue`).
  it('says nothing of a ready avatar, or one the catalogue does not know', () => {
    expect(avatarReadinessProblems(project, states({ anna: 'ready' }))).toEqual([]);
    expect(avatarReadinessProblems(project, states({}))).toEqual([]);
  });

  it('names a failed upload with what to do', () => {
    expect(
      avatarReadinessProblems(project, states({ anna: 'failed' })).map((p) => [p.code, p.message.split(': ')[1]]),
    ).toEqual([
      [
        'avatar-failed',
        "the avatar's upload failed on the service; a job with it would fail. Upload it again or choose another avatar.",
      ],
    ]);
  });
});
