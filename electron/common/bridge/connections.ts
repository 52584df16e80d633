import { z } from 'zod';
import { call } from './contract';
import { serviceAddressProblem } from '../net/address-rules';
import { callbackUrlProblem, normalCallbackUrl, parseListenAddress } from '../net/callback-address';
import { PlacementConvention } from '../composition/placement';

export const SANDBOX_CONNECTION_ID = 'sandbox';

export const httpAddress = (what: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, `${what} must be an http:// or https:// address`)
    .refine((v) => !/^[a-z]+:\/\/[^/]*@/i.test(v), `${what} must not contain a user name or password`);

/**
 * How a connection's service reads offset and scale, and how that is known: 'assumed' (the service's
 * own examples, not measured on this account), 'measured' (Check placement proved it), 'built-in' (the
 * sandbox reads what it was started with).
 */
export const ConnectionPlacement = PlacementConvention.extend({
  source: z.enum(['assumed', 'measured', 'built-in']),
  /** When Check placement measured it (ms since epoch). */
  checkedAt: z.number().nullable(),
});
export type ConnectionPlacement = z.infer<typeof ConnectionPlacement>;

/**
 * Callbacks instead of polling (issue 69), for a connection the service can reach the studio through:
 * `url` is where the service posts (as it reaches the receiver, usually a TLS proxy), `listen` where the
 * studio's receiver listens (loopback unless the user names another address: the one server the studio
 * may open beyond this machine). Every create on the connection then carries `<url>/<a job's token>`.
 */
export const ConnectionCallbacks = z.object({
  url: z
    .string()
    .trim()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = callbackUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `callback address ${problem}` });
    })
    // Kept as origin and path: a job's token follows it (an address refused above is left as it was).
    .transform((value) => (callbackUrlProblem(value) ? value : normalCallbackUrl(value))),
  listen: z
    .string()
    .trim()
    .max(300)
    .superRefine((value, ctx) => {
      const listen = parseListenAddress(value);
      if (typeof listen === 'string') ctx.addIssue({ code: 'custom', message: `listen address ${listen}` });
    }),
});
export type ConnectionCallbacks = z.infer<typeof ConnectionCallbacks>;

/** The listen address a callback setting starts from: this machine only. */
export const DEFAULT_CALLBACK_LISTEN = '127.0.0.1:8701';

export const ConnectionView = z.object({
  id: z.string(),
  name: z.string(),
  /** null for the sandbox before it has started. */
  baseUrl: z.string().nullable(),
  builtIn: z.boolean(),
  authKind: z.enum(['api-key', 'client-credentials']).nullable(),
  /** Whether credentials are stored; the credentials themselves never leave the host. */
  hasSecret: z.boolean(),
  webhookUrl: z.string().nullable(),
  /** Callbacks instead of polling; absent or null: its jobs are polled. Never anything secret. */
  callbacks: z.object({ url: z.string(), listen: z.string() }).nullable().optional(),
  active: z.boolean(),
  placement: ConnectionPlacement,
});
export type ConnectionView = z.infer<typeof ConnectionView>;

export const VaultStorage = z.object({
  protection: z.enum(['os-encryption', 'weak', 'memory', 'environment']),
  persistent: z.boolean(),
  notice: z.string().nullable(),
  canAcceptWeakStorage: z.boolean(),
  weakStorageAccepted: z.boolean(),
});
export type VaultStorage = z.infer<typeof VaultStorage>;

export const ConnectionsState = z.object({
  connections: z.array(ConnectionView),
  activeId: z.string(),
  storage: VaultStorage,
});
export type ConnectionsState = z.infer<typeof ConnectionsState>;

export const NewConnection = z.object({
  name: z.string().trim().min(1, 'name cannot be empty').max(60, 'name must be at most 60 characters'),
  /** Receives the connection's credentials: https, or plain http to this machine only (see address-rules). */
  baseUrl: httpAddress('base URL').superRefine((value, ctx) => {
    const problem = serviceAddressProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `base URL ${problem}` });
  }),
  webhookUrl: httpAddress('webhook URL').nullable().optional(),
  callbacks: ConnectionCallbacks.nullable().optional(),
});
export type NewConnection = z.infer<typeof NewConnection>;

export const ConnectionPatch = NewConnection.partial();
export type ConnectionPatch = z.infer<typeof ConnectionPatch>;

export const SecretInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('api-key'), apiKey: z.string().trim().min(4, 'the API key is too short').max(4096) }),
  z.object({
    kind: z.literal('client-credentials'),
    clientId: z.string().trim().min(1, 'client id cannot be empty').max(1024),
    clientSecret: z.string().trim().min(4, 'the client secret is too short').max(4096),
  }),
]);
export type SecretInput = z.infer<typeof SecretInput>;

export const ConnectionTest = z.object({
  ok: z.boolean(),
  /** A sentence for the user: what happened and, on failure, what to do. */
  message: z.string(),
  detail: z.string().nullable(),
  latencyMs: z.number().nullable(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

const connectionId = z.string().min(1).max(100);

export const connectionsCalls = {
  'connections.list': call(z.tuple([]), ConnectionsState),
  'connections.add': call(z.tuple([NewConnection]), ConnectionView),
  'connections.update': call(z.tuple([connectionId, ConnectionPatch]), ConnectionView),
  'connections.remove': call(z.tuple([connectionId]), z.void()),
  'connections.setActive': call(z.tuple([connectionId]), ConnectionsState),
  /** Sets or replaces the credentials; there is deliberately no call that reads them back. */
  'connections.setSecret': call(z.tuple([connectionId, SecretInput]), ConnectionView),
  'connections.clearSecret': call(z.tuple([connectionId]), ConnectionView),
  /** A cheap authenticated call (the voice list) answered in words. */
  'connections.test': call(z.tuple([connectionId]), ConnectionTest),
  /** The user accepts weaker storage for secrets where the OS offers no real encryption. */
  'connections.acceptWeakStorage': call(z.tuple([]), VaultStorage),
  /** The active connection's credit balance; `credit` null when the service does not answer it (nothing to show). */
  'connections.balance': call(z.tuple([]), z.object({ connectionId: z.string(), credit: z.number().nullable() })),
  /** Adds credits to the built-in sandbox's balance (its top-up control); refused for any other connection. */
  'connections.topUpSandbox': call(
    z.tuple([z.number().int().min(1).max(1_000_000)]),
    z.object({ connectionId: z.string(), credit: z.number().nullable() }),
  ),
};

export const connectionsEvents = {
  'connections.changed': ConnectionsState,
};
