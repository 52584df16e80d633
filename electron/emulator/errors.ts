import { describeCode, type ApiCode } from '../common/api';

/** A business failure: answered as `{ code, msg }` with HTTP 200, like the service. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiCode,
    message?: string,
  ) {
    super(message ?? describeCode(code));
  }
}

/** A media problem found while fetching, probing or rendering; `code` is the envelope code to use at create time. */
export class MediaError extends Error {
  constructor(
    readonly code: ApiCode,
    message: string,
  ) {
    super(message);
  }
}

export const fail = (code: ApiCode, message?: string): never => {
  throw new ApiError(code, message);
};
