/** One local file to put into a storage under `key`. */
export interface UploadInput {
  path: string;
  size: number;
  key: string;
  contentType: string;
  /**
   * The key's first part is the start of the bytes' sha-256 (the uploader's keys): an object already at
   * the key is these bytes, so a backend may link it instead of sending them again. A result's key
   * (run and file name) is not: a new take of the same name must be written over.
   */
  byContent?: boolean;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes sent so far. */
  onProgress?(sentBytes: number): void;
}

/** A link the service can fetch, and when it stops working (null: until the object is deleted). */
export interface StoredLink {
  url: string;
  expiresAt: number | null;
}

/** Where local files become links: an S3-compatible bucket, or the sandbox itself. */
export interface StorageBackend {
  upload(input: UploadInput, options?: UploadOptions): Promise<StoredLink>;
  /**
   * A new link for an object uploaded earlier, without sending its bytes again (presigned links
   * expire; the object does not). Null when the object is gone or the backend cannot re-link.
   */
  relink(key: string): Promise<StoredLink | null>;
  /** Whether a link handed out earlier still points here (the sandbox may have moved to another port). */
  isCurrent(url: string): Promise<boolean>;
  /** Proves the storage works end to end; resolves with a sentence for the user, throws otherwise. */
  test(): Promise<string>;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

/** The Content-Type a storage should serve a file with, so the service reads it as the right media. */
export function contentTypeFor(fileName: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
