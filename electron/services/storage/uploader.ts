import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UploadEntry, UploadRecords } from './upload-records';
import { contentTypeFor, type StorageBackend, type StoredLink } from './backend';

/**
 * A link must outlive the job that fetches it. A job may queue and process for hours, so a link with
 * less than a day left is renewed (or the file sent again) before a job uses it.
 */
export const LINK_MARGIN_MS = 24 * 60 * 60 * 1000;

/** Expired entries stay a while: an S3 object outlives its presigned link and can be re-linked. */
export const FORGET_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** How often the entries expired long ago are deleted (a query on the expiry index; once a run is plenty). */
const FORGET_EVERY_MS = 60 * 60 * 1000;

export type UploadPhase = 'hashing' | 'uploading';

export interface UploadResult extends StoredLink {
  storageId: string;
  hash: string;
  fileName: string;
  sizeBytes: number;
  /** reused: a live link of the same bytes; relinked: same object, new link; uploaded: bytes sent. */
  how: 'reused' | 'relinked' | 'uploaded';
}

export interface UploaderDeps {
  /** Where the entries live (the folder's records database): nothing of them is held here. */
  records: UploadRecords;
  backend(storageId: string): Promise<StorageBackend>;
  now?: () => number;
}

export interface UploadFileOptions {
  signal?: AbortSignal;
  onProgress?(phase: UploadPhase, doneBytes: number, totalBytes: number, fileName: string): void;
}

export class UploadError extends Error {
  constructor(
    readonly fileName: string,
    cause: unknown,
  ) {
    super(`Could not upload ${fileName}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'UploadError';
  }
}

/** sha-256 of a file, streamed (bounded memory whatever its size). */
export async function hashFile(path: string, signal?: AbortSignal, onBytes?: (done: number) => void): Promise<string> {
  const hash = createHash('sha256');
  let done = 0;
  const stream = createReadStream(path, { signal });
  stream.on('data', (chunk: string | Buffer) => {
    done += chunk.length;
    onBytes?.(done);
  });
  await pipeline(stream, hash);
  return hash.digest('hex');
}

/**
 * Turns local files into links the service can fetch. The content hash comes first, so the same bytes
 * are never sent twice to one storage while their link is valid (a record of hash → link → expiry).
 */
export class Uploader {
  private readonly records: UploadRecords;
  private readonly now: () => number;
  /** When entries expired long ago were last deleted (-Infinity: not yet in this process). */
  private forgotAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: UploaderDeps) {
    this.records = deps.records;
    this.now = deps.now ?? Date.now;
  }

  async uploadFile(path: string, storageId: string, options: UploadFileOptions = {}): Promise<UploadResult> {
    const fileName = basename(path);
    try {
      const { size } = await stat(path);
      if (size === 0) throw new Error('the file is empty');
      const hash = await hashFile(path, options.signal, (done) =>
        options.onProgress?.('hashing', done, size, fileName),
      );
      const known = this.records.find(storageId, hash);
      const backend = await this.deps.backend(storageId);
      const base = { storageId, hash, fileName, sizeBytes: size };
      if (known && this.live(known.expiresAt) && (await backend.isCurrent(known.url)))
        return { ...base, url: known.url, expiresAt: known.expiresAt, how: 'reused' };
      if (known) {
        const renewed = await backend.relink(known.key);
        if (renewed && this.live(renewed.expiresAt)) {
          this.remember({ ...known, ...renewed });
          return { ...base, ...renewed, how: 'relinked' };
        }
      }
      // The hash in the key keeps two different files of the same name apart.
      const key = `${hash.slice(0, 16)}/${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}`;
      const link = await backend.upload(
        { path, size, key, contentType: contentTypeFor(fileName), byContent: true },
        { signal: options.signal, onProgress: (sent) => options.onProgress?.('uploading', sent, size, fileName) },
      );
      this.remember({ ...base, key, ...link, uploadedAt: this.now() });
      return { ...base, ...link, how: 'uploaded' };
    } catch (error) {
      if (options.signal?.aborted) throw new UploadError(fileName, new Error('cancelled'));
      throw new UploadError(fileName, error);
    }
  }

  /**
   * Every file or none: resolves with one link per file only when all uploads succeeded, so nothing
   * reaches the service while a medium is missing. The first failure cancels the rest.
   */
  async uploadAll(paths: string[], storageId: string, options: UploadFileOptions = {}): Promise<UploadResult[]> {
    const controller = new AbortController();
    const relay = () => controller.abort();
    options.signal?.addEventListener('abort', relay, { once: true });
    try {
      return await Promise.all(
        paths.map((path) =>
          this.uploadFile(path, storageId, { ...options, signal: controller.signal }).catch((error: unknown) => {
            controller.abort();
            throw error;
          }),
        ),
      );
    } finally {
      options.signal?.removeEventListener('abort', relay);
    }
  }

  private live(expiresAt: number | null): boolean {
    return expiresAt === null || expiresAt - this.now() > LINK_MARGIN_MS;
  }

  private remember(entry: UploadEntry): void {
    this.records.remember(entry);
    const now = this.now();
    if (now - this.forgotAt < FORGET_EVERY_MS) return;
    this.forgotAt = now;
    this.records.forgetExpiredBefore(now - FORGET_AFTER_MS);
  }
}
