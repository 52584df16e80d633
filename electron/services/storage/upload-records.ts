import { z } from 'zod';

/** What the studio knows of one file it put in a storage: where it is, its link, and when the link ends. */
export const UploadEntry = z.object({
  storageId: z.string(),
  hash: z.string(),
  key: z.string(),
  url: z.string(),
  expiresAt: z.number().nullable(),
  sizeBytes: z.number(),
  fileName: z.string(),
  uploadedAt: z.number(),
});
export type UploadEntry = z.infer<typeof UploadEntry>;

/**
 * The uploader's record of what it uploaded, one entry per bytes (hash) and storage. It grows with the
 * work (a campaign uploads every row's pictures), so it is kept where a lookup is a query and a change
 * writes one entry (the folder's records database), not in memory. A record it fails to keep costs only
 * an upload again, so its writes report their failures to the log, never to the upload.
 */
export interface UploadRecords {
  /** The entry of these bytes in this storage, or null. */
  find(storageId: string, hash: string): UploadEntry | null;
  /** Keeps `entry` in place of any earlier one of the same bytes and storage. */
  remember(entry: UploadEntry): void;
  /** Forgets entries whose link ended before `time` (a link that never ends is kept). */
  forgetExpiredBefore(time: number): void;
}
