import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished, type Readable, type Writable } from 'node:stream';
import { getThroughFetch, nodeHttpGet, type GetResponse } from './http-get';
import { DirectPartFile } from './direct-part-file';
import { PartFile } from './part-file';
import type { SpeedLimit } from './speed-limit';
import { syncFolder } from '../projects/atomic-file';
import { RefusedTargetError } from '../net/guarded-fetch';

/** What the queue remembers about a partial file so a later run can ask for the rest of the same file. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
  totalBytes: number | null;
}

export interface FetchProgress {
  /** Bytes in the `.part` file so far. */
  bytes: number;
  totalBytes: number | null;
  /** Bytes this attempt received (what the network carried, for speed). */
  received: number;
}

export interface FetchToFileOptions {
  url: string;
  /** The final path; the bytes go to `<target>.part` first. */
  target: string;
  /** Default: Node's HTTP client (nodeHttpGet); tests pass a fetch with faults in front of it. */
  fetch?: typeof globalThis.fetch;
  /** Validators seen in an earlier attempt, if any (from the queue record). */
  validators: Validators | null;
  signal?: AbortSignal;
  /** Called as the validators of this response become known, before any byte is written. */
  onValidators?(validators: Validators): void | Promise<void>;
  onProgress?(progress: FetchProgress): void;
  /** Checks the complete file is real media (ffprobe); throws with the reason otherwise. */
  verify?(partPath: string): Promise<void>;
  /** The speed limit shared by every transfer, if any. */
  limit?: SpeedLimit;
  /** Every byte has arrived (the network is free for another file); the checks and rename follow. */
  onReceived?(): void;
}

export interface FetchedFile {
  bytes: number;
  validators: Validators;
  /** SHA-256 of the file, hashed as its bytes went to the disk (a resumed file's earlier part read once). */
  sha256: string;
}

/** A failure worth trying again (network, 5xx, a short body); the `.part` is kept for a resume. */
export class RetryableDownloadError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * What a refused link means, in the service's terms. Not "results are kept for 7 days": that sat beside
 * "6 d 23 h left" on a result the service had already let go, so the time a link had left is no promise.
 */
function goneWords(status: number): string {
  if (status === 403) return 'the link has expired or is no longer allowed';
  return 'the result is gone from the service (expired or removed), whatever time its link had left';
}

/** A failure that trying again will not fix (404, not media, expired link). */
export class FinalDownloadError extends Error {}

export function partPath(target: string): string {
  return `${target}.part`;
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? info.size : 0;
}

/** Content-Range: "bytes 100-199/1000" → { start: 100, total: 1000 }. */
export function parseContentRange(value: string | null): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[2] === '*' ? null : Number(match[2]) };
}

/**
 * Streams one URL to `<target>.part`, resuming with Range + If-Range when an earlier attempt left bytes
 * and the server named the file's version (ETag or Last-Modified); a server that answers 200 instead of
 * 206, or a different version, starts the file again. The length is checked against what the server
 * announced, the media is verified, and only then is the `.part` renamed to the target: a partial or
 * corrupt file never carries the final name. Memory stays bounded: bytes flow through streams.
 */
export async function fetchToFile(options: FetchToFileOptions): Promise<FetchedFile> {
  const part = partPath(options.target);
  const have = await sizeOf(part);
  const ifRange = options.validators?.etag ?? options.validators?.lastModified ?? null;
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  const resuming = have > 0 && ifRange !== null;
  if (resuming) {
    headers.range = `bytes=${have}-`;
    headers['if-range'] = ifRange;
  }

  let response: GetResponse;
  try {
    const get = options.fetch ? getThroughFetch(options.fetch) : nodeHttpGet;
    response = await get(options.url, { headers, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof RefusedTargetError) throw new FinalDownloadError(`the link was refused: ${error.message}`);
    throw new RetryableDownloadError(`the connection failed (${describeCause(error)})`);
  }

  if (response.status === 416 && resuming && options.validators?.totalBytes === have) {
    // The earlier attempt had every byte; it stopped before the check and rename.
    await response.discard();
    const hash = createHash('sha256');
    await hashPrefix(hash, part, have);
    return finish(options, part, have, options.validators, hash);
  }
  if (response.status >= 500 || response.status === 429 || response.status === 408) {
    await response.discard();
    throw new RetryableDownloadError(`the server answered HTTP ${response.status}`, retryAfter(response));
  }
  if (response.status === 416) {
    // Our partial file no longer matches anything the server has: start again.
    await response.discard();
    await rm(part, { force: true });
    throw new RetryableDownloadError('the server refused to continue the partial file; starting again');
  }
  if (response.status === 403 || response.status === 404 || response.status === 410) {
    await response.discard();
    throw new FinalDownloadError(`the link no longer works (HTTP ${response.status}): ${goneWords(response.status)}`);
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.discard();
    throw new FinalDownloadError(`the server answered HTTP ${response.status}`);
  }
  if (!response.body) throw new RetryableDownloadError('the server sent no body');

  const length = headerNumber(response.header('content-length'));
  let start = 0;
  let total: number | null = length;
  if (response.status === 206) {
    const range = parseContentRange(response.header('content-range'));
    if (!range || range.start !== have) {
      await response.discard();
      await rm(part, { force: true });
      throw new RetryableDownloadError('the server sent a different part of the file than asked; starting again');
    }
    start = have;
    total = range.total ?? (length !== null ? have + length : null);
  }
  const validators: Validators = {
    etag: response.header('etag'),
    lastModified: response.header('last-modified'),
    totalBytes: total,
  };
  // Remembered before the first byte lands, so a crash right after still allows a resume.
  await options.onValidators?.(validators);

  let received = 0;
  await mkdir(dirname(part), { recursive: true });
  // The hash follows the bytes as they are written; the part an earlier attempt wrote is read once.
  const hash = createHash('sha256');
  if (start > 0) {
    try {
      await hashPrefix(hash, part, start);
    } catch (error) {
      await response.discard();
      throw new RetryableDownloadError(`the partial file could not be read (${describeCause(error)})`);
    }
  }
  // 'w' when the server sent the whole file (it ignored Range or the version changed): start over.
  const flags = start > 0 ? 'a' : 'w';
  let sink: Writable;
  try {
    sink = (await DirectPartFile.open(part, flags)) ?? new PartFile(part, { flags });
  } catch (error) {
    await response.discard();
    if (isNoSpace(error)) throw error;
    return failedWrite(part, error);
  }
  try {
    // Counted as the bytes go by rather than through a stream stage of its own (a stage per chunk was
    // a measurable share of the time at loopback speeds); attached in the same turn as the pipe, so no
    // chunk flows before the file is there to take it.
    const body = response.body;
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      hash.update(chunk);
      options.onProgress?.({ bytes: start + received, totalBytes: total, received });
    });
    await keepWhatArrives(options.limit ? options.limit.throttle(body) : body, sink, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (isNoSpace(error)) throw error;
    if (error instanceof PartWriteError) await failedWrite(part, error.cause);
    throw new RetryableDownloadError(
      `the connection dropped after ${start + received} bytes (${describeCause(error)})`,
    );
  }
  const bytes = start + received;
  if (total !== null && bytes !== total) {
    if (bytes > total) {
      await rm(part, { force: true });
      throw new RetryableDownloadError(
        `the server sent ${bytes} bytes, more than the ${total} it announced; starting again`,
      );
    }
    throw new RetryableDownloadError(`the server sent ${bytes} of the ${total} bytes it announced`);
  }
  return finish(options, part, bytes, validators, hash);
}

/** Feeds the first `length` bytes of a file to the hash. */
async function hashPrefix(hash: Hash, path: string, length: number): Promise<void> {
  if (length === 0) return;
  for await (const chunk of createReadStream(path, { start: 0, end: length - 1 })) hash.update(chunk as Buffer);
}

/**
 * Pipes a response body into the `.part` file. When the connection drops, what already arrived is
 * still written (a pipeline would throw the writes still queued away), so the resume asks only for
 * the rest. Rejects with the body's error, the file's error, or the abort reason.
 */
function keepWhatArrives(body: Readable, sink: Writable, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    const stopReading = (reason: unknown): void => {
      if (failure !== null) return;
      failure = reason;
      body.unpipe(sink);
      body.destroy();
      sink.end();
    };
    const onAbort = (): void => {
      failure = signal?.reason ?? new Error('aborted');
      body.unpipe(sink);
      body.destroy();
      sink.destroy();
      reject(failure);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // finished() also answers for a body that was torn down before these listeners existed (a
    // connection dropped while the validators were being written).
    finished(body, (error) => {
      if (error) stopReading(error);
    });
    sink.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      body.destroy();
      reject(isNoSpace(error) ? error : new PartWriteError(error));
    });
    sink.once('finish', () => {
      signal?.removeEventListener('abort', onAbort);
      if (failure === null) resolve();
      else reject(failure);
    });
    body.pipe(sink);
  });
}

async function finish(
  options: FetchToFileOptions,
  part: string,
  bytes: number,
  validators: Validators,
  hash: Hash,
): Promise<FetchedFile> {
  options.onReceived?.();
  try {
    await fsyncFile(part);
  } catch (error) {
    if (isNoSpace(error)) throw error;
    await failedWrite(part, error);
  }
  if (options.verify) {
    try {
      await options.verify(part);
    } catch (error) {
      await rm(part, { force: true });
      throw new FinalDownloadError(`the downloaded file is not readable media (${describeCause(error)})`);
    }
  }
  await rename(part, options.target);
  await syncFolder(dirname(options.target));
  return { bytes, validators, sha256: hash.digest('hex') };
}

/** A file error while writing the `.part` (not the network's). */
class PartWriteError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

/**
 * The disk refused the `.part` or could not flush it: its bytes cannot be trusted (after a failed
 * flush the cache may hold pages the disk never got), so it goes, and the file is not tried again.
 */
async function failedWrite(part: string, cause: unknown): Promise<never> {
  await rm(part, { force: true });
  throw new FinalDownloadError(`the file could not be written to the disk (${describeCause(cause)})`);
}

/** Flushes a file's bytes to the disk; unlike a folder's flush, a failure here is reported. */
async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

function headerNumber(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

function retryAfter(response: GetResponse): number | undefined {
  const value = response.header('retry-after');
  return value && /^\d+$/.test(value) ? Math.min(Number(value) * 1000, 60_000) : undefined;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** What a download that gave up says, in plain words. */
export function describeFailure(error: unknown): string {
  if (error instanceof RetryableDownloadError || error instanceof FinalDownloadError)
    return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
  return `Could not save the file: ${(error as Error).message}`;
}
