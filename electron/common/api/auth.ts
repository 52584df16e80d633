import { z } from 'zod';
import { int } from './common';
import { Code } from './error-codes';

export const getTokenBodySchema = z.object({
  clientId: z.string({ error: 'clientId must be a string' }).min(1, { error: 'clientId cannot be empty' }),
  clientSecret: z.string({ error: 'clientSecret must be a string' }).min(1, { error: 'clientSecret cannot be empty' }),
});
export type GetTokenBody = z.infer<typeof getTokenBodySchema>;

/**
 * The document does not show the token response. The public service answers `{ code, token }`; the
 * sandbox also sends `msg`, `data.token` and `data.expire` (seconds). The schema accepts any of them;
 * read the token with `tokenFromResponse`.
 */
export const getTokenResponseSchema = z
  .looseObject({
    code: int(),
    msg: z.string().optional(),
    token: z.string().optional(),
    data: z.looseObject({ token: z.string().optional(), expire: z.number().optional() }).optional(),
  })
  .refine((r) => r.code !== Code.Success || typeof (r.token ?? r.data?.token) === 'string', {
    error: 'a successful token response carries a token',
  });
export type GetTokenResponse = z.infer<typeof getTokenResponseSchema>;

export function tokenFromResponse(response: GetTokenResponse): string | undefined {
  return response.token ?? response.data?.token;
}
