import type { z } from 'zod';
import {
  Code,
  ENDPOINTS,
  describeIssues,
  successEnvelope,
  emptySuccessEnvelopeSchema,
  tokenFromResponse,
  type EndpointName,
} from '../../common/api';
import { endpointTypes, type RequestFor, type ResultFor } from './endpoint-types';
import { ApiKeyAuth, ClientCredentialsAuth, type AuthProvider, type Credentials } from './auth';
import { ServiceError } from './errors';
import { runAccount, type RunAccount } from './account-proof';
import { explainAnalyzeFrames, explainDetection } from './explanations';
import { Transport, type QueryValue, type RequestMode, type TransportOptions } from './transport';

/** How the transport treats a request: a create is never sent twice after an answer that proves nothing. */
export function requestModeOf(name: EndpointName): RequestMode {
  return ENDPOINTS[name].creates ? 'create' : 'read';
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Told when each attempt leaves, after its turn at the connection's pace. */
  onSent?: (at: number) => void;
  /** Asked the moment before each attempt leaves; false: nothing sent (see RequestSpec). */
  stillGoes?: () => boolean;
}

export type ServiceClientOptions = Omit<TransportOptions, 'auth'> & { credentials?: Credentials };

// Built once per endpoint: zod compiles a schema on first use, which is costly per request.
const envelopes = new Map<EndpointName, z.ZodType>();
function envelopeSchema(name: EndpointName): z.ZodType {
  let schema = envelopes.get(name);
  if (!schema) {
    schema =
      name === 'liveUpdate' || name === 'liveClose'
        ? emptySuccessEnvelopeSchema
        : successEnvelope(endpointTypes[name].result);
    envelopes.set(name, schema);
  }
  return schema;
}

function zodDetail(error: z.ZodError): string {
  return `the answer does not match the interface: ${describeIssues(error)}`;
}

/**
 * A typed client for every endpoint of the service. Requests are validated before they are sent and
 * answers before they are returned; every failure is a ServiceError.
 */
export class ServiceClient {
  private readonly transport: Transport;
  readonly authKind: Credentials['kind'] | 'none';
  /** Which account a run of this client's belongs to (runs on a queue record it; workers compare theirs). */
  readonly account: (runId: string) => RunAccount | null;

  constructor(options: ServiceClientOptions) {
    const { credentials, ...rest } = options;
    let auth: AuthProvider | undefined;
    const bare = new Transport(rest);
    if (credentials?.kind === 'api-key') auth = new ApiKeyAuth(credentials.apiKey);
    else if (credentials?.kind === 'client-credentials') {
      const clock = rest.clock ?? { now: () => Date.now() };
      auth = new ClientCredentialsAuth(async (signal) => {
        const answer = await bare.request({
          method: 'POST',
          path: ENDPOINTS.getToken.path,
          body: { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
          mode: 'read',
          authenticated: false,
          signal,
          parse: (json) => {
            const parsed = endpointTypes.getToken.result.safeParse(json);
            if (!parsed.success) throw new Error(zodDetail(parsed.error));
            const token = tokenFromResponse(parsed.data);
            if (!token) throw new Error('the token answer carries no token');
            const expire = parsed.data.data?.expire;
            return { token, expiresAt: typeof expire === 'number' ? clock.now() + expire * 1000 : undefined };
          },
        });
        return answer;
      }, clock);
    }
    this.authKind = credentials?.kind ?? 'none';
    this.account = (runId) => runAccount(rest.baseUrl, credentials, runId);
    this.transport = new Transport({ ...rest, auth });
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Whether the account's rate holds this client's requests back now: polls then wait until a job is likely done. */
  turnsScarce(): boolean {
    return this.transport.turnsScarce();
  }

  async call<N extends EndpointName>(name: N, input: RequestFor<N>, options: CallOptions = {}): Promise<ResultFor<N>> {
    const spec = ENDPOINTS[name];
    const checked = endpointTypes[name].request.safeParse(input);
    if (!checked.success) {
      throw new ServiceError({ kind: 'invalid', endpoint: spec.path, detail: describeIssues(checked.error) });
    }
    const mode = requestModeOf(name);
    // Send what the caller wrote (validated), not zod's output, so defaults are the service's to apply.
    const payload = input as Record<string, QueryValue> | undefined;
    return this.transport.request({
      method: spec.method,
      path: spec.path,
      query: spec.input === 'query' ? payload : undefined,
      body: spec.input === 'body' ? input : undefined,
      mode,
      authenticated: spec.authenticated,
      businessEnvelope: spec.envelope === 'business',
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      onSent: options.onSent,
      stillGoes: options.stillGoes,
      parse: (json) => this.parse(name, json),
    }) as Promise<ResultFor<N>>;
  }

  private parse(name: EndpointName, json: unknown): unknown {
    const spec = ENDPOINTS[name];
    const result: z.ZodType = endpointTypes[name].result;
    if (spec.envelope === 'business') {
      const schema = envelopeSchema(name);
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new Error(zodDetail(parsed.error));
      return (parsed.data as { data?: unknown }).data;
    }
    const parsed = result.safeParse(json);
    if (!parsed.success) throw new Error(zodDetail(parsed.error));
    const value = parsed.data as Record<string, unknown>;
    const code = typeof value.code === 'number' && value.code !== Code.Success ? value.code : undefined;
    if (spec.envelope === 'face-detection' && value.error_code !== 0) {
      const message = String(value.error_msg ?? '');
      throw new ServiceError({
        kind: 'service',
        endpoint: spec.path,
        code,
        serviceMessage: message,
        explanation: explainDetection(message),
      });
    }
    if (spec.envelope === 'analyze-frames' && value.success !== true) {
      const message = String(value.error ?? '');
      throw new ServiceError({
        kind: 'service',
        endpoint: spec.path,
        code,
        serviceMessage: message,
        explanation: explainAnalyzeFrames(message),
      });
    }
    return value;
  }
}
