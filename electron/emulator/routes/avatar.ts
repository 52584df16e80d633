import type { FastifyInstance } from 'fastify';
import { DEFAULT_AVATAR_PAGE_SIZE, Code, RecordStatus } from '../../common/api';
import { avatarClipFile, avatarThumbFile } from '../catalogue/catalogue';
import type { OFFICIAL_AVATARS } from '../catalogue/definitions';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { createJob } from '../jobs/create';
import { FLAT_PRICES } from '../pricing';
import { defineEndpoint } from '../server';
import { RECORD_KINDS, kindsReadBy } from '../state/types';
import type { Caller } from '../state/accounts';

type AvatarRow = { _id: string; avatar_id: string; url: string; from: number; type: number } & Record<string, unknown>;

type OfficialAvatar = (typeof OFFICIAL_AVATARS)[number];

function officialRow(ctx: EmulatorContext, a: OfficialAvatar, i: number): AvatarRow {
  return {
    _id: a._id,
    disabled: false,
    uid: 0,
    type: a.type,
    from: 2,
    status: RecordStatus.Completed,
    sort: 100 - i,
    create_time: 1710000000000 + i,
    name: a.name,
    avatar_id: a.avatar_id,
    url: ctx.files.catalogueUrl(avatarClipFile(a.avatar_id)),
    modify_url: '',
    gender: a.gender,
    thumbnailUrl: ctx.files.catalogueUrl(avatarThumbFile(a.avatar_id)),
    crop_arr: [],
  };
}

/** The caller's uploaded avatars (newest first): the records the avatar detail operation reads back. */
function ownAvatars(ctx: EmulatorContext, caller: Caller): AvatarRow[] {
  const uploaded = kindsReadBy('avatarDetail');
  return Object.values(ctx.store.state.jobs)
    .filter((j) => uploaded.includes(j.kind) && j.uid === caller.account.uid)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((j) => ctx.views.avatar(j) as AvatarRow);
}

/** Official avatars followed by the caller's uploads (newest first). */
export function allAvatars(ctx: EmulatorContext, caller: Caller): AvatarRow[] {
  return [...ctx.catalogue.avatars.map((a, i) => officialRow(ctx, a, i)), ...ownAvatars(ctx, caller)];
}

type AvatarIds = { _id: string; avatar_id: string };

/**
 * The first avatar that `matches`, official ones first. An official one is found without looking through every job the
 * sandbox holds: each avatar video's create asks, and that look grew with the jobs of a campaign until
 * it held the thread that answers requests (and counts them against the rate) for tens of milliseconds.
 */
export function findAvatar(
  ctx: EmulatorContext,
  caller: Caller,
  matches: (a: AvatarIds) => boolean,
): AvatarRow | undefined {
  const at = ctx.catalogue.avatars.findIndex(matches);
  if (at !== -1) return officialRow(ctx, ctx.catalogue.avatars[at], at);
  return ownAvatars(ctx, caller).find(matches);
}

export function avatarRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'avatarList', async (q, caller) => {
    const rows = allAvatars(ctx, caller).filter(
      (a) => (q.from === undefined || a.from === q.from) && (q.type === undefined || a.type === q.type),
    );
    const page = q.page ?? 1;
    const size = q.size ?? DEFAULT_AVATAR_PAGE_SIZE;
    return rows.slice((page - 1) * size, page * size);
  });

  defineEndpoint(app, ctx, 'avatarDetail', async (q, caller) => {
    const row = findAvatar(ctx, caller, (a) => a._id === q.id);
    if (!row) throw new ApiError(Code.ContentNotFound, `avatar id "${q.id}" does not exist`);
    return [row];
  });

  defineEndpoint(app, ctx, 'avatarCreate', async (body, caller) => {
    if (allAvatars(ctx, caller).some((a) => a.avatar_id === body.avatar_id)) {
      throw new ApiError(Code.ResourceExists, `avatar_id "${body.avatar_id}" already exists`);
    }
    const job = createJob(ctx, caller, {
      kind: RECORD_KINDS.avatarCreate.kind,
      request: { ...body, name: body.name ?? body.avatar_id },
      cost: FLAT_PRICES.avatarCreate,
    });
    return [ctx.views.avatar(job)];
  });
}
