import { avatarIdSchema } from '@common/api/avatar';
import { AvatarUploadCheck, isActivePhase, type JobView } from '@common/bridge';
import type { JobQuerySpec } from '@/stores/job-query';

export interface UploadForm {
  source: string;
  avatarId: string;
  name: string;
  type: 1 | 2;
  urlFrom: 1 | 2;
}

/** Every reason the form cannot be sent, in the interface's words; nothing is sent while there is one. */
export function checkUpload(
  form: UploadForm,
): { ok: true; request: AvatarUploadCheck } | { ok: false; reasons: string[] } {
  const parsed = AvatarUploadCheck.safeParse(form);
  if (parsed.success) return { ok: true, request: parsed.data };
  return { ok: false, reasons: [...new Set(parsed.error.issues.map((i) => i.message))] };
}

/** The avatar_id rule while typing: nothing said about an empty field yet. */
export function avatarIdProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const parsed = avatarIdSchema.safeParse(text.trim());
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'avatar_id is not valid');
}

export interface UploadRow {
  id: string;
  avatarId: string;
  name: string;
  phase: JobView['phase'];
  active: boolean;
  /** 0..1, the engine's estimate. */
  progress: number;
  /** The service's status of the avatar (1..4), once it answered. */
  remoteStatus: number | null;
  /** Why it failed or stopped, in plain words. */
  problem: string | null;
  createdAt: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The upload list's question of the host: the newest avatar uploads, as many as it shows. */
export const RECENT_UPLOADS: JobQuerySpec = { name: 'avatar-uploads', filter: { kinds: ['avatar-upload'] }, limit: 8 };

/** The avatar uploads the ledger holds, newest first: each followed to 3 (ready) or 4 (failed, with the reason). */
export function uploadRows(jobs: readonly JobView[]): UploadRow[] {
  return jobs
    .filter((j) => j.kind === 'avatar-upload')
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((j) => {
      const request = (j.request ?? {}) as Record<string, unknown>;
      return {
        id: j.id,
        avatarId: text(request.avatar_id),
        name: text(request.name) || text(request.avatar_id),
        phase: j.phase,
        active: isActivePhase(j.phase),
        progress: j.progress,
        remoteStatus: j.remoteStatus,
        problem:
          j.phase === 'completed' || isActivePhase(j.phase) ? null : (j.error?.explanation ?? j.error?.message ?? null),
        createdAt: j.createdAt,
      };
    });
}
