import { describe, expect, it } from 'vitest';
import type { JobView } from '@common/bridge';
import { avatarState, suggestUrlFrom } from '@common/catalogue/avatar-facts';
import { toEditorAvatar } from '@/composables/editor-catalogue';
import { withUploadStates } from '@/composables/uploaded-avatars';
import type { CatalogueAvatar } from '@/stores/editor-assets';
import { avatarIdProblem, checkUpload, uploadRows } from '@/views/tools/avatars/avatars-logic';

const avatar = (avatarId: string, over: Partial<CatalogueAvatar> = {}): CatalogueAvatar => ({
  avatarId,
  name: avatarId,
  url: `https://cdn.test/${avatarId}.mp4`,
  thumbnailUrl: null,
  from: 3,
  gender: null,
  ...over,
});
const upload = (avatarId: string, phase: JobView['phase'], over: Partial<JobView> = {}): JobView =>
  ({
    id: `job-${avatarId}`,
    kind: 'avatar-upload',
    phase,
    connectionId: 'sandbox',
    request: { avatar_id: avatarId, name: `Name of ${avatarId}`, url: 'https://cdn.test/a.mp4', type: 1 },
    createdAt: 1,
    remoteStatus: null,
    error: null,
    progress: 0.4,
    ...over,
  }) as JobView;

describe('uploads in the editor', () => {
  it('marks an upload the service still processes, from its status or from its running job', () => {
    expect(toEditorAvatar({ avatar_id: 'A1', url: 'u', from: 3, status: 2 })?.processing).toBe(true);
    expect(toEditorAvatar({ avatar_id: 'A1', url: 'u', from: 3, status: 3 })?.processing).toBeUndefined();
    // The interface's list shows no status: the ledger knows the upload is still running.
    const marked = withUploadStates(
      [avatar('A1'), avatar('B2')],
      [upload('A1', 'processing'), upload('B2', 'completed')],
      'sandbox',
    );
    expect(marked.map((a) => [a.avatarId, a.processing ?? false])).toEqual([
      ['A1', true],
      ['B2', false],
    ]);
  });

  it('shows an upload the service does not list yet from its job, and only for the active connection', () => {
    const shown = withUploadStates(
      [avatar('A1')],
      [upload('New1', 'queued'), upload('Other1', 'queued', { connectionId: 'elsewhere' })],
      'sandbox',
    );
    expect(shown).toHaveLength(2);
    expect(shown[1]).toMatchObject({ avatarId: 'New1', name: 'Name of New1', from: 3, processing: true });
  });
});

describe('avatar upload form', () => {
  const form = {
    source: 'https://cdn.test/me.mp4',
    avatarId: 'Me1',
    name: 'Me',
    type: 1 as const,
    urlFrom: 1 as const,
  };

  it('passes a request the interface accepts and names every problem of one it does not', () => {
    expect(checkUpload(form)).toMatchObject({ ok: true, request: { avatarId: 'Me1', urlFrom: 1 } });
    expect(checkUpload({ ...form, source: '', avatarId: 'me_1', name: '' })).toEqual({
      ok: false,
      reasons: [
        'give a link to the avatar video (or picture), or choose a local file',
        'avatar_id may contain letters and digits only',
        'give the avatar a name',
      ],
    });
    expect(avatarIdProblem('')).toBeNull();
    expect(avatarIdProblem('Ann a')).toBe('avatar_id may contain letters and digits only');
    expect(avatarIdProblem('x'.repeat(65))).toBe('avatar_id must be at most 64 characters');
  });

  it('suggests url_from 2 for video sites and cloud drives only', () => {
    expect(suggestUrlFrom('https://www.youtube.com/watch?v=x')).toBe(2);
    expect(suggestUrlFrom('https://drive.google.com/file/d/x')).toBe(2);
    expect(suggestUrlFrom('https://my-bucket.s3.amazonaws.com/me.mp4')).toBe(1);
    expect(suggestUrlFrom('not a link')).toBe(1);
  });

  it('lists uploads newest first with the failure in plain words', () => {
    const failed = upload('Bad1', 'failed', {
      createdAt: 5,
      error: {
        code: null,
        endpoint: null,
        message: 'x',
        explanation: 'The service could not finish this job: url holds no picture',
      },
    });
    const rows = uploadRows([upload('A1', 'processing'), failed]);
    expect(rows.map((r) => [r.avatarId, r.active, r.problem])).toEqual([
      ['Bad1', false, 'The service could not finish this job: url holds no picture'],
      ['A1', true, null],
    ]);
    expect(avatarState({ status: 4 })).toBe('failed');
    expect(avatarState({})).toBe('ready');
  });
});
