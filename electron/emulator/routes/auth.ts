import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { defineEndpoint } from '../server';
import { Code } from '../../common/api';

export function authRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  defineEndpoint(app, ctx, 'getToken', async (body) => {
    const { token, expire } = ctx.accounts.issueToken(body.clientId, body.clientSecret);
    return { code: Code.Success, msg: 'OK', token, data: { token, expire } };
  });
}
