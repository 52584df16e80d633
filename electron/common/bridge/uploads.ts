import { z } from 'zod';
import { call } from './contract';

const uploadId = z.string().min(1).max(100);

export const LinkedFile = z.object({
  /** The file: reference the page used. */
  reference: z.string(),
  fileName: z.string(),
  url: z.string(),
  /** When the link stops working; null for a public bucket's link. */
  expiresAt: z.number().nullable(),
  how: z.enum(['reused', 'relinked', 'uploaded']),
  /** The content's SHA-256 (hex): what `studio upload --json` reports. */
  sha256: z.string(),
});
export type LinkedFile = z.infer<typeof LinkedFile>;

export const LinkedValue = z.object({
  /** The value given, with every local file reference replaced by its link. */
  value: z.unknown(),
  files: z.array(LinkedFile),
});
export type LinkedValue = z.infer<typeof LinkedValue>;

export const UploadProgress = z.object({
  uploadId: z.string(),
  fileName: z.string(),
  phase: z.enum(['hashing', 'uploading']),
  doneBytes: z.number(),
  totalBytes: z.number(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;

export const uploadsCalls = {
  /**
   * Uploads every local file a value (a request body, a project) refers to, to the active storage (or
   * the one named by id, as a command line's --storage does, leaving the active one alone), and answers
   * the value with links in their place. All or nothing: a failure names the file and nothing is
   * returned, so nothing reaches the service while a medium is missing.
   */
  'uploads.linkLocalMedia': call(
    z.tuple([z.object({ uploadId, value: z.unknown(), storage: z.string().min(1).max(200).optional() })]),
    LinkedValue,
  ),
  'uploads.cancel': call(z.tuple([uploadId]), z.boolean()),
};

export const uploadsEvents = {
  'uploads.progress': UploadProgress,
};
