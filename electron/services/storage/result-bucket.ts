import { stat } from 'node:fs/promises';
import { SANDBOX_STORAGE_ID } from '../../common/bridge/storage';
import { contentTypeFor } from './backend';
import { S3Backend } from './s3-backend';
import type { StorageManager } from './storage-manager';

/**
 * Where a worker put its copy of a result: the storage as the user named it, its bucket and the object's
 * whole key (the storage's prefix included). No link: a presigned one carries a signature that expires,
 * and whoever reads the bucket has its own credentials.
 */
export interface BucketCopy {
  storage: string;
  bucket: string;
  key: string;
}

/** The copy as one address, as manifests and the AWS tools write it. */
export function bucketLocation(copy: Pick<BucketCopy, 'bucket' | 'key'>): string {
  return `s3://${copy.bucket}/${copy.key}`;
}

/**
 * A result's key under the storage's prefix: the run, then the file's name relative to the run's folder.
 * A name never climbs out of its run (`..`, a leading slash, Windows separators), so the same run and
 * file always give the same key: an upload made again writes over its own object, never beside it.
 */
export function resultKey(runId: string, relative: string): string {
  const parts = [runId, ...relative.split(/[\\/]+/)].filter((p) => p !== '' && p !== '.' && p !== '..');
  if (parts.length < 2) throw new Error(`"${relative}" names no file of run ${runId}`);
  return parts.join('/');
}

/** The part of an S3 storage's backend a bucket of results uses. */
type ResultBackend = Pick<S3Backend, 'upload' | 'fullKey'>;

/**
 * A storage's bucket a `studio worker` copies every result it saves into (`--bucket`). Uploads are keyed
 * by run and file only, so a row made again (another take, another worker after a crash) replaces the
 * same object with the same bytes or its newer take.
 */
export class ResultBucket {
  constructor(
    private readonly backend: ResultBackend,
    readonly storage: string,
    readonly bucket: string,
  ) {}

  async put(runId: string, relative: string, path: string): Promise<BucketCopy> {
    const key = resultKey(runId, relative);
    const { size } = await stat(path);
    try {
      await this.backend.upload({ path, size, key, contentType: contentTypeFor(relative) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`the upload to the storage "${this.storage}" (bucket ${this.bucket}) failed: ${reason}`);
    }
    return { storage: this.storage, bucket: this.bucket, key: this.backend.fullKey(key) };
  }
}

/**
 * The bucket of a storage named as the command line names storages (its name or id, "environment" for
 * STUDIO_S3_*), with its secret where the host reads storage secrets. The sandbox's storage is no
 * bucket, and a storage without its key is refused here, before any row is taken.
 */
export async function openResultBucket(storages: StorageManager, named: string): Promise<ResultBucket> {
  const id = storages.resolve(named);
  if (id === SANDBOX_STORAGE_ID)
    throw new Error(
      'The sandbox storage is not a bucket: name an S3-compatible storage (or STUDIO_S3_* as "environment")',
    );
  const view = await storages.view(id);
  const backend = await storages.backend(id);
  if (!(backend instanceof S3Backend)) throw new Error(`The storage "${view.name}" is not an S3-compatible bucket`);
  return new ResultBucket(backend, view.name, view.bucket);
}
