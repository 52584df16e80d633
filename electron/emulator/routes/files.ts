import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import { describeIssues, Code } from '../../common/api';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { priceList } from '../pricing';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const faultsSchema = z.object({
  failRate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().min(0).max(60_000).optional(),
  http5xxRate: z.number().min(0).max(1).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  tooFrequentRate: z.number().min(0).max(1).optional(),
  dropAfterCreateRate: z.number().min(0).max(1).optional(),
  callbackLostRate: z.number().min(0).max(1).optional(),
  callbackDuplicateRate: z.number().min(0).max(1).optional(),
  callbackDelayRate: z.number().min(0).max(1).optional(),
  callbackDelayMs: z.number().min(0).max(600_000).optional(),
  callbackReorderRate: z.number().min(0).max(1).optional(),
  callbackForgedRate: z.number().min(0).max(1).optional(),
  holdJobs: z.boolean().optional(),
});

/**
 * Media is public, like a CDN link of the real service, so any page may read it (the studio draws
 * waveforms from the bytes, which a browser only allows with this header).
 *
 * Result files (`/files/<name>`, gone after their lifetime) and catalogue media (`/sandbox/<name>`),
 * plus `/__sandbox/*` control routes for tests and integrators (authenticated with the API key).
 */
export async function fileRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  await app.register(fastifyStatic, { root: ctx.files.filesDir, serve: false });

  app.get<{ Params: { name: string } }>('/files/:name', async (request, reply) => {
    const { name } = request.params;
    if (!SAFE_NAME.test(name) || !ctx.files.liveResult(name)) {
      return reply
        .code(404)
        .send({ code: Code.ResourceNotFound, msg: 'Resource does not exist (unknown or expired after 7 days)' });
    }
    return reply.header('access-control-allow-origin', '*').sendFile(name, ctx.files.filesDir);
  });

  app.get<{ Params: { name: string } }>('/sandbox/:name', async (request, reply) => {
    const { name } = request.params;
    if (!SAFE_NAME.test(name) || name === 'manifest.json')
      return reply.code(404).send({ code: Code.ResourceNotFound, msg: 'Resource does not exist' });
    // Sample media are generated in the background at the first start of an install.
    const unavailable = await ctx.catalogue.ensure().then(
      () => null,
      (error: Error) => error.message,
    );
    if (unavailable)
      return reply.code(503).send({ msg: `The sandbox's sample media could not be prepared: ${unavailable}` });
    return reply.header('access-control-allow-origin', '*').sendFile(name, ctx.files.catalogueDir);
  });

  const control = (headers: Record<string, string | string[] | undefined>) => {
    const caller = ctx.accounts.authenticate(headers);
    return caller.account;
  };

  app.get('/__sandbox/status', async (request) => {
    const account = control(request.headers);
    const jobs = Object.values(ctx.store.state.jobs);
    return {
      code: Code.Success,
      msg: 'OK',
      data: {
        credits: account.credits,
        jobs: { total: jobs.length, open: jobs.filter((j) => j.status < 3).length },
        faults: ctx.faults.rates,
        webhooks: jobs.filter((j) => j.webhook).map((j) => ({ _id: j._id, ...j.webhookLog })),
        // The interface has no read operation for live sessions; integrators can watch them here.
        live: Object.values(ctx.store.state.live).map((s) => ({
          _id: s._id,
          faceswap_status: s.status,
          closed: s.closed,
        })),
      },
    };
  });

  // The interface publishes no price for most operations; the sandbox publishes its own, from the table
  // its routes charge by, so a studio can say what work costs here before any charge has been seen.
  app.get('/__sandbox/prices', async (request) => {
    control(request.headers);
    return { code: Code.Success, msg: 'OK', data: priceList() };
  });

  app.post('/__sandbox/faults', async (request) => {
    control(request.headers);
    const parsed = faultsSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new ApiError(Code.ParameterError, describeIssues(parsed.error));
    const { holdJobs, ...rates } = parsed.data;
    Object.assign(ctx.faults.rates, rates);
    if (holdJobs !== undefined) ctx.faults.holdJobs(holdJobs);
    return { code: Code.Success, msg: 'OK', data: { ...ctx.faults.rates, holdJobs: ctx.faults.holding } };
  });

  app.post('/__sandbox/credits', async (request) => {
    control(request.headers);
    const parsed = z.object({ credits: z.number().int().min(0) }).safeParse(request.body ?? {});
    if (!parsed.success) throw new ApiError(Code.ParameterError, describeIssues(parsed.error));
    ctx.accounts.setCredits(parsed.data.credits);
    return { code: Code.Success, msg: 'OK', data: { credits: parsed.data.credits } };
  });

  // A top-up adds to the balance (an account that ran out goes on from what it has).
  app.post('/__sandbox/top-up', async (request) => {
    const account = control(request.headers);
    const parsed = z.object({ credits: z.number().int().min(1).max(1_000_000_000) }).safeParse(request.body ?? {});
    if (!parsed.success) throw new ApiError(Code.ParameterError, describeIssues(parsed.error));
    ctx.accounts.setCredits(account.credits + parsed.data.credits);
    return { code: Code.Success, msg: 'OK', data: { credits: account.credits } };
  });
}
