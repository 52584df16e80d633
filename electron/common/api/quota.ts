import { z } from 'zod';
import { envelope } from './common';

/**
 * The credit balance. Not in the interface document: the service's official demos read it from
 * `GET /api/open/v3/faceswap/quota/info` as `data.credit`. A service that does not answer it simply
 * has no balance to show.
 */
export const quotaInfoQuerySchema = z.object({});
export const quotaInfoSchema = z.looseObject({ credit: z.number() });
export type QuotaInfo = z.infer<typeof quotaInfoSchema>;
export const quotaInfoResponseSchema = envelope(quotaInfoSchema);
