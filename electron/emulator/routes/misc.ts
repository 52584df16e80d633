import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { defineEndpoint } from '../server';
import { Code } from '../../common/api';

export const BACKGROUND_CHANGE_GONE = 'Background change is deprecated and no longer available';

export function miscRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'aiModelList', async (q) =>
    ctx.catalogue.models
      .filter((m) => (q.types as number[]).includes(m.type))
      .sort((a, b) => (b.sort ?? 0) - (a.sort ?? 0)),
  );

  defineEndpoint(app, ctx, 'quotaInfo', async (_q, caller) => ({ credit: caller.account.credits }));

  // Deprecated: authenticated and validated like the rest, then refused with 1206.
  defineEndpoint(app, ctx, 'backgroundChangeCreate', async () => {
    throw new ApiError(Code.BackgroundChangeError, BACKGROUND_CHANGE_GONE);
  });
  defineEndpoint(app, ctx, 'backgroundChangeInfo', async () => {
    throw new ApiError(Code.BackgroundChangeError, BACKGROUND_CHANGE_GONE);
  });
}
