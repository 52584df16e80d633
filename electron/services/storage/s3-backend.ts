import { createReadStream } from 'node:fs';
import type { S3Client } from '@aws-sdk/client-s3';
import { PRESIGNED_LINK_SECONDS, type S3Secret } from '../../common/bridge/storage';
import type { StoredS3Storage } from './storage-records';
import type { StorageBackend, StoredLink, UploadInput, UploadOptions } from './backend';

/** The SDK is a third of a second of loading: it is loaded when a bucket is first used, not at start-up. */
async function loadSdk() {
  // On Node 20 (which `engines` supports) the SDK prints a page about its releases after January 2027
  // needing Node 22 into the CLI's and web host's output. The lock file pins the release we ship, and
  // Electron brings its own newer Node, so the notice tells a user nothing they can act on.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

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
  private sdk: Promise<{ sdk: Sdk; client: S3Client }> | null = null;
  private disposed = false;
  private readonly fetch: typeof globalThis.fetch;
  private readonly now: () => number;

  constructor(
    private readonly config: StoredS3Storage,
    private readonly secret: S3Secret,
    deps: S3BackendDeps = {},
  ) {
    this.fetch = deps.fetch ?? globalThis.fetch;
    this.now = deps.now ?? Date.now;
  }

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.sdk ??= loadSdk().then((sdk) => {
      const client = new sdk.S3Client({
        region: this.config.region,
        endpoint: this.config.endpoint ?? undefined,
        forcePathStyle: this.config.pathStyle,
        credentials: { accessKeyId: this.secret.accessKeyId, secretAccessKey: this.secret.secretAccessKey },
        // The SDK would otherwise read ~/.aws and the environment; this storage's settings are the whole truth.
        maxAttempts: 3,
      });
      if (this.disposed) client.destroy();
      return { sdk, client };
    });
    return this.sdk;
  }

  fullKey(key: string): string {
    const prefix = this.config.prefix.replace(/^\/+/, '');
    return prefix && !prefix.endsWith('/') ? `${prefix}/${key}` : `${prefix}${key}`;
  }

  async upload(input: UploadInput, options: UploadOptions = {}): Promise<StoredLink> {
    const key = this.fullKey(input.key);
    const { sdk, client } = await this.connect();
    // The key is named by the bytes' hash: an object there of the same size is these bytes, put by another
    // process (a worker rendering the same picture): linked, not sent again.
    const there = !input.byContent
      ? null
      : await client
          .send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal: options.signal })
          .catch(() => null);
    if (there?.ContentLength === input.size) return this.linkFor(key);
    const upload = new sdk.Upload({
      client,
      params: {
        Bucket: this.config.bucket,
        Key: key,
        Body: createReadStream(input.path),
        ContentType: input.contentType,
        ContentLength: input.size,
      },
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
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: full }));
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
    const { sdk, client } = await this.connect();
    const signedAt = this.now();
    const url = await sdk.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: fullKey }), {
      expiresIn: PRESIGNED_LINK_SECONDS,
    });
    return { url, expiresAt: signedAt + PRESIGNED_LINK_SECONDS * 1000 };
  }

  async test(): Promise<string> {
    const key = this.fullKey(`.studio-test-${this.now().toString(36)}.txt`);
    const text = `Avatar Studio storage test ${new Date(this.now()).toISOString()}`;
    const bucket = this.config.bucket;
    const { sdk, client } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: text, ContentType: 'text/plain' }));
    try {
      const link = await this.linkFor(key);
      const response = await this.fetch(link.url);
      const body = await response.text();
      if (!response.ok)
        throw new Error(`the uploaded test object could not be read back through its link (HTTP ${response.status})`);
      if (body !== text) throw new Error('the link returned different bytes than were uploaded');
    } finally {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    }
    return `Connected. Uploaded a test object to "${bucket}", read it back through its ${this.config.publicBaseUrl ? 'public' : 'presigned'} link and deleted it.`;
  }

  dispose(): void {
    this.disposed = true;
    void this.sdk?.then(({ client }) => client.destroy());
  }
}
