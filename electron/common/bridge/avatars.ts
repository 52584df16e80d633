import { z } from 'zod';
import { avatarIdSchema, avatarListItemSchema, avatarRecordSchema } from '../api/avatar';
import { AvatarQuery } from './catalogue';
import { call } from './contract';
import { PaidConfirmation, SubmitResult } from './jobs';

/** One page of the avatar list, as the interface pages it (page from 1, size default 100, no total). */
export const AvatarPage = z.object({
  items: z.array(avatarListItemSchema),
  page: z.number().int(),
  size: z.number().int(),
  /** A full page may have a next one; a shorter one is the last. */
  hasMore: z.boolean(),
});
export type AvatarPage = z.infer<typeof AvatarPage>;

/** A web link, or a local file the user granted (`file:`), uploaded to the active storage first. */
const avatarSource = z
  .string()
  .trim()
  .min(1, 'give a link to the avatar video (or picture), or choose a local file')
  .refine(
    (v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v) || v.startsWith('file:'),
    'the avatar must be an http(s) link or a local file you chose',
  );

/** What an upload is, before anyone agreed to pay for it: the host checks this before the price is asked. */
export const AvatarUploadCheck = z.object({
  source: avatarSource,
  avatarId: z.string().trim().pipe(avatarIdSchema),
  name: z.string().trim().min(1, 'give the avatar a name').max(100, 'the name must be at most 100 characters'),
  /** 1 talking avatar, 2 stream avatar. */
  type: z.union([z.literal(1), z.literal(2)], { error: 'type must be 1 (talking avatar) or 2 (stream avatar)' }),
  /** 1 own or same-service links, 2 third-party links (video sharing sites and cloud drives only). A local file is always 1. */
  urlFrom: z
    .union([z.literal(1), z.literal(2)], { error: 'url_from must be 1 (own link) or 2 (video site or cloud drive)' })
    .optional(),
});
export type AvatarUploadCheck = z.infer<typeof AvatarUploadCheck>;

export const AvatarUploadRequest = AvatarUploadCheck.extend({
  /** The user saw the "duplicate, confirm?" answer and wants to send it anyway. */
  confirmDuplicate: z.boolean().optional(),
  /** Who agreed to pay for the upload (required; the engine refuses it without one too). */
  confirmation: PaidConfirmation,
});
export type AvatarUploadRequest = z.infer<typeof AvatarUploadRequest>;

const avatarRef = z.string().trim().min(1, 'give an avatar id').max(200, 'an avatar id is at most 200 characters');

export const avatarsCalls = {
  /** One page of the active connection's avatars, read from the service now (no cache). */
  'avatars.list': call(z.tuple([AvatarQuery.optional()]), AvatarPage),
  /** One avatar's record: by its record id (`_id`), or by its `avatar_id`. */
  'avatars.detail': call(z.tuple([avatarRef]), avatarRecordSchema),
  /**
   * The host's own checks of an upload (the avatar_id not taken, a local file the service would take),
   * nothing sent: the studio runs them before it asks the price, so a "yes" is not refused afterwards.
   */
  'avatars.checkUpload': call(z.tuple([AvatarUploadCheck]), z.void()),
  /** Checks the upload, links a local file, sends it through the job engine; the job is followed to 3 or 4. */
  'avatars.upload': call(z.tuple([AvatarUploadRequest]), SubmitResult),
};
