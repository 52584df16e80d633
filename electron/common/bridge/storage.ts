import { z } from 'zod';
import { httpAddress } from './connections';
import { call } from './contract';

/** The built-in storage: the sandbox hosts uploaded files itself, so local media works offline. */
export const SANDBOX_STORAGE_ID = 'sandbox';
/** A storage declared by STUDIO_S3_* environment variables (web host and CLI). */
export const ENV_STORAGE_ID = 'environment';

/** How long a presigned link stays valid: the service keeps results 7 days, and S3 allows no longer. */
export const PRESIGNED_LINK_SECONDS = 7 * 24 * 60 * 60;

const optionalHttpAddress = (what: string) => httpAddress(what).nullable();

export const StorageView = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['sandbox', 's3']),
  /** Built in (the sandbox) or declared by the environment: neither can be edited from the page. */
  builtIn: z.boolean(),
  /** S3-compatible endpoint; null means AWS S3 itself. */
  endpoint: z.string().nullable(),
  region: z.string(),
  bucket: z.string(),
  prefix: z.string(),
  pathStyle: z.boolean(),
  /** When set the bucket is public: links are this base plus the object key, valid until deleted. */
  publicBaseUrl: z.string().nullable(),
  /** Whether an access key is stored; the key itself never leaves the host. */
  hasSecret: z.boolean(),
  active: z.boolean(),
});
export type StorageView = z.infer<typeof StorageView>;

export const StoragesState = z.object({ storages: z.array(StorageView), activeId: z.string() });
export type StoragesState = z.infer<typeof StoragesState>;

export const NewS3Storage = z.object({
  name: z.string().trim().min(1, 'name cannot be empty').max(60, 'name must be at most 60 characters'),
  endpoint: optionalHttpAddress('endpoint'),
  region: z.string().trim().min(1, 'region cannot be empty').max(64),
  bucket: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'bucket must be 3-63 lower-case letters, digits, dots or dashes'),
  prefix: z
    .string()
    .trim()
    .max(512)
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "prefix may hold letters, digits and !_.*'()/- only"),
  pathStyle: z.boolean(),
  publicBaseUrl: optionalHttpAddress('public base URL'),
});
export type NewS3Storage = z.infer<typeof NewS3Storage>;

export const S3Secret = z.object({
  accessKeyId: z.string().trim().min(1, 'the access key id cannot be empty').max(256),
  secretAccessKey: z.string().trim().min(1, 'the secret access key cannot be empty').max(1024),
});
export type S3Secret = z.infer<typeof S3Secret>;

export const StorageTest = z.object({ ok: z.boolean(), message: z.string(), latencyMs: z.number().nullable() });
export type StorageTest = z.infer<typeof StorageTest>;

const storageId = z.string().min(1).max(100);

export const storageCalls = {
  'storage.list': call(z.tuple([]), StoragesState),
  'storage.add': call(z.tuple([NewS3Storage]), StorageView),
  'storage.update': call(z.tuple([storageId, NewS3Storage.partial()]), StorageView),
  'storage.remove': call(z.tuple([storageId]), StoragesState),
  'storage.setActive': call(z.tuple([storageId]), StoragesState),
  'storage.setSecret': call(z.tuple([storageId, S3Secret]), StorageView),
  'storage.clearSecret': call(z.tuple([storageId]), StorageView),
  /** Uploads a small object, reads it back through its link and deletes it. */
  'storage.test': call(z.tuple([storageId]), StorageTest),
};

export const storageEvents = {
  'storage.changed': StoragesState,
};
