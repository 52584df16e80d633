import { explainCode, explainFailure, type ServiceErrorKind } from './explanations';

export type { ServiceErrorKind };

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  endpoint: string;
  code?: number;
  serviceMessage?: string;
  httpStatus?: number;
  /** True when the request may have reached the service and been acted on (a create's outcome is unknown). */
  ambiguous?: boolean;
  retryAfterMs?: number;
  detail?: string;
  /** Overrides the explanation derived from kind and code (face detection messages, ...). */
  explanation?: string;
}

/** The one error type every service call throws. Never carries credentials: only codes, texts and paths. */
export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly endpoint: string;
  readonly code: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly httpStatus: number | undefined;
  readonly ambiguous: boolean;
  readonly retryAfterMs: number | undefined;
  /** A sentence a user can act on. */
  readonly explanation: string;

  constructor(init: ServiceErrorInit) {
    const explanation =
      init.explanation ??
      (init.kind === 'service' && init.code !== undefined ? explainCode(init.code) : explainFailure(init));
    const parts = [explanation];
    if (init.code !== undefined) parts.push(`code ${init.code}`);
    if (init.serviceMessage) parts.push(`service said: "${init.serviceMessage}"`);
    if (init.httpStatus !== undefined) parts.push(`HTTP ${init.httpStatus}`);
    if (init.detail) parts.push(init.detail);
    super(`${parts.join(' · ')} (${init.endpoint})`);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.httpStatus = init.httpStatus;
    this.ambiguous = init.ambiguous ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.explanation = explanation;
  }

  /** A plain, serialisable view for job records and bridge answers. */
  toJSON(): SerializedServiceError {
    return {
      kind: this.kind,
      endpoint: this.endpoint,
      code: this.code ?? null,
      serviceMessage: this.serviceMessage ?? null,
      httpStatus: this.httpStatus ?? null,
      explanation: this.explanation,
      message: this.message,
    };
  }
}

export interface SerializedServiceError {
  kind: ServiceErrorKind;
  endpoint: string;
  code: number | null;
  serviceMessage: string | null;
  httpStatus: number | null;
  explanation: string;
  message: string;
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
