import { createReadStream } from 'node:fs';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PRESIGNED_LINK_SECONDS, type S3Secret } from '../../common/bridge/storage';
import type { StoredS3Storage } from './storage-records';
import type { StorageBackend, StoredLink, UploadInput, UploadOptions } from './backend';

export interface S3BackendDeps {
  fetch?: typeof globalThis.fetch;
  now?: () => number;
}

/**
 * An S3-compatible bucket (AWS S3, R2, B2, MinIO, ...) through the official SDK: multipart uploads with
 * progress and abort, and links that are either presigned GETs valid for 7 days or, for a public bucket,
 * plain links under its public base URL.
 */
export class S3Backend implements StorageBackend {
  private readonly client: S3Client;
  private readonly fetch: typeof globalThis.fetch;
  private readonly now: () => number;

  constructor(
    private readonly config: StoredS3Storage,
    secret: S3Secret,
    deps: S3BackendDeps = {},
  ) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.pathStyle,
      credentials: { accessKeyId: secret.accessKeyId, secretAccessKey: secret.secretAccessKey },
      // The SDK would otherwise read ~/.aws and the environment; this storage's settings are the whole truth.
      maxAttempts: 3,
    });
    this.fetch = deps.fetch ?? globalThis.fetch;
    this.now = deps.now ?? Date.now;
  }

  fullKey(key: string): string {
    const prefix = this.config.prefix.replace(/^\/+/, '');
    return prefix && !prefix.endsWith('/') ? `${prefix}/${key}` : `${prefix}${key}`;
  }

  async upload(input: UploadInput, options: UploadOptions = {}): Promise<StoredLink> {
    const key = this.fullKey(input.key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: key, Body: createReadStream(input.path), ContentType: input.contentType, ContentLength: input.size },
      // 8 MB parts, two at a time: bounded memory whatever the file size.
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    upload.on('httpUploadProgress', (p) => options.onProgress?.(p.loaded ?? 0));
    const abort = () => void upload.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    options.signal?.throwIfAborted();
    return this.linkFor(key);
  }

  async relink(key: string): Promise<StoredLink | null> {
    const full = this.fullKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: full }));
    } catch {
      return null;
    }
    return this.linkFor(full);
  }

  async isCurrent(): Promise<boolean> {
    return true;
  }

  private async linkFor(fullKey: string): Promise<StoredLink> {
    if (this.config.publicBaseUrl) {
      const base = this.config.publicBaseUrl.replace(/\/+$/, '');
      return { url: `${base}/${fullKey.split('/').map(encodeURIComponent).join('/')}`, expiresAt: null };
    }
    const signedAt = this.now();
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.config.bucket, Key: fullKey }), { expiresIn: PRESIGNED_LINK_SECONDS });
    return { url, expiresAt: signedAt + PRESIGNED_LINK_SECONDS * 1000 };
  }

  async test(): Promise<string> {
    const key = this.fullKey(`.studio-test-${this.now().toString(36)}.txt`);
    const text = `Avatar Studio storage test ${new Date(this.now()).toISOString()}`;
    const bucket = this.config.bucket;
    await this.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text, ContentType: 'text/plain' }));
    try {
      const link = await this.linkFor(key);
      const response = await this.fetch(link.url);
      const body = await response.text();
      if (!response.ok) throw new Error(`the uploaded test object could not be read back through its link (HTTP ${response.status})`);
      if (body !== text) throw new Error('the link returned different bytes than were uploaded');
    } finally {
      await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    }
    return `Connected. Uploaded a test object to "${bucket}", read it back through its ${this.config.publicBaseUrl ? 'public' : 'presigned'} link and deleted it.`;
  }

  dispose(): void {
    this.client.destroy();
  }
}
