import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { defineEndpoint } from '../server';

export function authRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'getToken', async (body) => {
    const { token, expire } = ctx.accounts.issueToken(body.clientId, body.clientSecret);
    return { code: 1000, msg: 'OK', token, data: { token, expire } };
  });
}
