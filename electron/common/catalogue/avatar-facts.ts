import type { AvatarRecord } from '../api/avatar';
import { RecordStatus } from '../api';

/** The interface's words for an avatar's `type` and `from`, as the Tools workspace and `studio avatars` show them. */
export const AVATAR_TYPE_LABELS: Record<1 | 2, string> = { 1: 'Talking', 2: 'Streaming' };
export const AVATAR_FROM_LABELS: Record<2 | 3, string> = { 2: 'Official', 3: 'Uploaded' };

export type AvatarState = 'ready' | 'processing' | 'failed' | 'disabled';

export const AVATAR_STATE_LABELS: Record<AvatarState, string> = {
  ready: 'Ready',
  processing: 'Processing',
  failed: 'Failed',
  disabled: 'Disabled',
};

/**
 * Whether an avatar can be used in a video now. The interface allows a stream avatar only once its
 * status is 3, and the service refuses any upload still being processed (1010), so 1 and 2 are
 * "processing". A list answer without a status (the interface's list shows none) counts as ready.
 */
export function avatarState(avatar: Pick<AvatarRecord, 'status' | 'disabled'>): AvatarState {
  if (avatar.disabled) return 'disabled';
  if (avatar.status === RecordStatus.Failed) return 'failed';
  if (avatar.status === RecordStatus.Queueing || avatar.status === RecordStatus.Processing) return 'processing';
  return 'ready';
}

export const typeLabel = (type: number | undefined): string =>
  AVATAR_TYPE_LABELS[type as 1 | 2] ?? (type === undefined ? '—' : `type ${type}`);
export const fromLabel = (from: number | undefined): string =>
  AVATAR_FROM_LABELS[from as 2 | 3] ?? (from === undefined ? '—' : `from ${from}`);

/** Hosts whose links are "third-party" in the interface's sense (video sharing sites and cloud drives): url_from 2. */
const THIRD_PARTY_HOSTS =
  /(^|\.)(youtube\.com|youtu\.be|vimeo\.com|tiktok\.com|bilibili\.com|dailymotion\.com|drive\.google\.com|docs\.google\.com|dropbox\.com|onedrive\.live\.com|1drv\.ms|sharepoint\.com|box\.com|mega\.nz|icloud\.com)$/i;

/** The `url_from` a link most likely needs: 2 for a video site or cloud drive, 1 for anything else (own storage). */
export function suggestUrlFrom(link: string): 1 | 2 {
  try {
    return THIRD_PARTY_HOSTS.test(new URL(link).hostname) ? 2 : 1;
  } catch {
    return 1;
  }
}

/** One line per avatar for the command line: id, name, from, type, state. */
export function formatAvatarRows(avatars: readonly AvatarRecord[]): string[] {
  return avatars.map((a) =>
    [
      a.avatar_id ?? '',
      a.name ?? '',
      fromLabel(a.from),
      typeLabel(a.type),
      AVATAR_STATE_LABELS[avatarState(a)],
      a._id ?? '',
    ].join('\t'),
  );
}

/** Every field the service gave for one avatar, one per line, the known ones first in plain words. */
export function formatAvatarDetail(avatar: AvatarRecord): string {
  const known: [string, unknown][] = [
    ['Name', avatar.name],
    ['avatar_id', avatar.avatar_id],
    ['Record id', avatar._id],
    ['From', fromLabel(avatar.from)],
    ['Type', typeLabel(avatar.type)],
    [
      'State',
      `${AVATAR_STATE_LABELS[avatarState(avatar)]}${avatar.status === undefined ? '' : ` (status ${avatar.status})`}`,
    ],
    ['Gender', avatar.gender],
    ['Created', typeof avatar.create_time === 'number' ? new Date(avatar.create_time).toISOString() : undefined],
    ['Video', avatar.url],
    ['Thumbnail', avatar.thumbnailUrl],
  ];
  const shown = new Set([
    'name',
    'avatar_id',
    '_id',
    'from',
    'type',
    'status',
    'gender',
    'create_time',
    'url',
    'thumbnailUrl',
  ]);
  const rest = Object.entries(avatar).filter(
    ([key, value]) =>
      !shown.has(key) && value !== '' && value !== undefined && !(Array.isArray(value) && value.length === 0),
  );
  return [
    ...known.filter(([, v]) => v !== undefined && v !== ''),
    ...rest.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, unknown]),
  ]
    .map(([k, v]) => `${k.padEnd(10)} ${String(v)}`)
    .join('\n');
}
