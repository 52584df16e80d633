import { z } from 'zod';
import { ENV_STORAGE_ID, NewS3Storage, S3Secret, SANDBOX_STORAGE_ID } from '../../common/bridge/storage';
import type { RecordStoreSpec } from '../host/types';

export const StoredS3Storage = NewS3Storage.extend({ id: z.string() });
export type StoredS3Storage = z.infer<typeof StoredS3Storage>;

const StoragesRecord = z.object({
  storages: z.array(StoredS3Storage),
  activeId: z.string(),
});
export type StoragesRecord = z.infer<typeof StoragesRecord>;

export const storagesSpec: RecordStoreSpec<StoragesRecord> = {
  name: 'storages',
  schema: StoragesRecord,
  defaults: { storages: [], activeId: SANDBOX_STORAGE_ID },
  version: 1,
};

/** Vault ids of storage secrets; distinct from connection secrets so no service key is ever sent to S3. */
export function storageSecretId(storageId: string): string {
  return `storage:${storageId}`;
}

export type Env = Record<string, string | undefined>;

/**
 * An S3 storage declared whole by the environment (STUDIO_S3_BUCKET, STUDIO_S3_ACCESS_KEY_ID,
 * STUDIO_S3_SECRET_ACCESS_KEY, optionally STUDIO_S3_ENDPOINT, _REGION, _PREFIX, _PATH_STYLE,
 * _PUBLIC_BASE_URL). Its keys apply to that storage only, never to one added from the page.
 */
export function storageFromEnv(env: Env): { storage: StoredS3Storage; secret: S3Secret } | string | undefined {
  const bucket = env.STUDIO_S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const config = NewS3Storage.safeParse({
    name: 'Environment S3',
    endpoint: env.STUDIO_S3_ENDPOINT?.trim() || null,
    region: env.STUDIO_S3_REGION?.trim() || 'us-east-1',
    bucket,
    prefix: env.STUDIO_S3_PREFIX?.trim() ?? '',
    pathStyle: /^(1|true|yes)$/i.test(env.STUDIO_S3_PATH_STYLE?.trim() ?? ''),
    publicBaseUrl: env.STUDIO_S3_PUBLIC_BASE_URL?.trim() || null,
  });
  if (!config.success)
    return `STUDIO_S3_* is not usable: ${config.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  const secret = S3Secret.safeParse({
    accessKeyId: env.STUDIO_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.STUDIO_S3_SECRET_ACCESS_KEY ?? '',
  });
  if (!secret.success)
    return 'STUDIO_S3_BUCKET is set but STUDIO_S3_ACCESS_KEY_ID / STUDIO_S3_SECRET_ACCESS_KEY are missing ';
  return { storage: { ...config.data, id: ENV_STORAGE_ID }, secret: secret.data };
}
