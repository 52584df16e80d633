import { z } from 'zod';
import { detectFacesResponseSchema, MAX_NUM_FRAMES, personSchema } from '../api/faces';
import { LANDMARK_OPTS_PATTERN } from '../api/live';
import { PaidConfirmation } from '../jobs/cost-model';
import { call } from './contract';

/** A web link, or a local file reference the user granted (`file:`); the host decides how it is sent. */
const mediaSource = z
  .string()
  .trim()
  .min(1, 'give a link or a local file to detect faces in')
  .refine(
    (v) => /^https?:\/\/[^\s/]+/i.test(v) || v.startsWith('file:'),
    'the media must be an http(s) link or a local file you chose',
  );

export const DetectRequest = z.object({
  source: mediaSource,
  singleFace: z.boolean().optional(),
  returnFaceUrl: z.boolean().optional(),
  numFrames: z
    .number()
    .int()
    .min(1, 'frames must be at least 1')
    .max(MAX_NUM_FRAMES, `frames must be at most ${MAX_NUM_FRAMES}`)
    .optional(),
});
export type DetectRequest = z.infer<typeof DetectRequest>;

export const DetectResult = detectFacesResponseSchema;
export type DetectResult = z.infer<typeof DetectResult>;

export const AnalyzeRequest = z.object({
  frameUrls: z
    .array(
      z
        .string()
        .trim()
        .regex(/^https?:\/\/[^\s/]+/i, 'every frame must be an http(s) link'),
    )
    .min(1, 'give at least one frame'),
  timestamps: z.array(z.number().min(0, 'timestamps cannot be negative')).optional(),
  expandRatio: z
    .number()
    .min(0, 'expand ratio must be between 0 and 1')
    .max(1, 'expand ratio must be between 0 and 1')
    .optional(),
});
export type AnalyzeRequest = z.infer<typeof AnalyzeRequest>;

/** Frames taken on the host from a local video the user chose, at the times given (seconds). */
export const VideoFramesRequest = z.object({
  video: z
    .string()
    .startsWith('file:', 'frames are taken from a local video you chose; give a link to an image instead'),
  times: z
    .array(z.number().min(0, 'times cannot be negative'))
    .min(1, 'give at least one time')
    .max(MAX_NUM_FRAMES, `take at most ${MAX_NUM_FRAMES} frames`),
});
export type VideoFramesRequest = z.infer<typeof VideoFramesRequest>;

/** One taken frame: a granted local picture (uploaded like any local file before analysis) and what it shows. */
export const VideoFrame = z.object({ reference: z.string(), time: z.number(), dataUrl: z.string() });
export type VideoFrame = z.infer<typeof VideoFrame>;

export const AnalyzeResult = z.object({ frameCount: z.number().int(), persons: z.array(personSchema) });
export type AnalyzeResult = z.infer<typeof AnalyzeResult>;

/** A face chosen for live face swap: its image link and the landmarks detection gave it. */
export const LiveFace = z.object({
  path: z.string().regex(/^https?:\/\/[^\s/]+/i, 'a face must be an http(s) link'),
  opts: z.string().regex(LANDMARK_OPTS_PATTERN, 'landmarks must have the form x1,y1:x2,y2:x3,y3:x4,y4'),
});
export type LiveFace = z.infer<typeof LiveFace>;

export const LiveSession = z.object({
  id: z.string(),
  connectionId: z.string(),
  createdAt: z.number(),
  faces: z.array(LiveFace),
  /** 1 queuing, 2 processing, 3 success, 4 failed, as the create answered (the interface has no call to read it again). */
  status: z.number().int(),
  /** When `status` was last known: the create's answer (records from before this field: createdAt). */
  statusAt: z.number().optional(),
  /** What opening it cost, from the balance before and after (null: the service did not say). */
  chargedCredits: z.number().nullable().optional(),
  channelId: z.string(),
  frontUserId: z.string(),
  algorithmUserId: z.string(),
  appId: z.string(),
  /** The sandbox has no media server: the real-time leg is simulated there. */
  simulated: z.boolean(),
  /** Who opened it: the studio (closed on quit, or at the next start after a crash) or `studio live create` (kept until `studio live close`, or the studio's quit). */
  origin: z.enum(['studio', 'cli']).default('studio'),
});
export type LiveSession = z.infer<typeof LiveSession>;

/** A live session as the Library lists it: open or closed, what opening it cost. */
export const LiveSessionEntry = z.object({
  id: z.string(),
  connectionId: z.string(),
  createdAt: z.number(),
  /** null while it is open. */
  closedAt: z.number().nullable(),
  /** From the balance before and after opening it; null: the service did not say. */
  chargedCredits: z.number().nullable(),
  faceCount: z.number().int(),
  /** The create's answer (1 to 4) and when it was known; the interface has no call to read it again. */
  status: z.number().int(),
  statusAt: z.number(),
});
export type LiveSessionEntry = z.infer<typeof LiveSessionEntry>;

/**
 * What the real-time client in the page needs to join a session's channel. The channel token is the one
 * secret the page holds: the real-time SDK runs there (camera, WebRTC), it is good for this channel only,
 * it is never written to disk or logs (its field name is redacted), and the sandbox's is never given.
 */
export const LiveChannel = z.object({
  appId: z.string(),
  channelId: z.string(),
  frontUserId: z.string(),
  algorithmUserId: z.string(),
  frontRtcToken: z.string(),
});
export type LiveChannel = z.infer<typeof LiveChannel>;

const sessionId = z.string().trim().min(1, 'give a session id').max(100);
const faces = z.array(LiveFace).min(1, 'choose at least one face');

export const facesCalls = {
  'faces.detect': call(z.tuple([DetectRequest]), DetectResult),
  'faces.analyze': call(z.tuple([AnalyzeRequest]), AnalyzeResult),
  'faces.videoFrames': call(z.tuple([VideoFramesRequest]), z.array(VideoFrame)),
  /** Opens a paid session: needs the user's confirmation, and `another` to open a second one for the same faces. */
  'live.create': call(
    z.tuple([faces, z.object({ confirmation: PaidConfirmation, another: z.boolean().optional() })]),
    LiveSession,
  ),
  'live.update': call(z.tuple([sessionId, faces]), LiveSession),
  'live.close': call(z.tuple([sessionId]), z.void()),
  'live.sessions': call(z.tuple([]), z.array(LiveSession)),
  /** This data folder's sessions, open ones first then the latest closed, newest first, with what each cost (the Library's list). */
  'live.history': call(z.tuple([]), z.array(LiveSessionEntry)),
  'live.join': call(z.tuple([sessionId]), LiveChannel),
  /** The camera and microphone are allowed (desktop app) only while the Live face swap tab runs them. */
  'live.camera': call(z.tuple([z.boolean()]), z.void()),
};
