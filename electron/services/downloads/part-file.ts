import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** What a PartFile needs of an open file (a FileHandle; tests pass one that fails or counts). */
export interface PartHandle {
  writev(buffers: Buffer[]): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

export interface PartFileOptions {
  /** 'a' continues a partial file, 'w' starts it over. */
  flags: 'a' | 'w';
  /** Bytes written between two early flushes of this file. */
  flushEvery?: number;
  /** Opens the file (tests). */
  open?(path: string, flags: 'a' | 'w'): Promise<PartHandle>;
}

export const EARLY_FLUSH_BYTES = 8 * 1024 * 1024;
/**
 * Early flushes running at once across every download: each holds one of libuv's four threads until the
 * disk answers, and the writes of the downloads themselves need the others.
 */
const MAX_EARLY_FLUSHES = 2;
let earlyFlushes = 0;

/**
 * The `.part` file of a download, written as bytes arrive. Every `flushEvery` bytes it asks the disk to
 * take what it has (fdatasync, not awaited by the writes), so the disk works while the network still
 * delivers and the flush before the rename has only the tail left: with a flush per file and nothing
 * earlier, the disk idled while a file arrived and then held up every download behind whole-file flushes.
 * An early flush that fails fails the file: its bytes may not be on the disk, and a later fsync through
 * another descriptor would not report it.
 */
export class PartFile extends Writable {
  private handle: PartHandle | null = null;
  private unflushed = 0;
  private flushing: Promise<void> | null = null;
  private flushError: Error | null = null;
  private readonly flushEvery: number;

  constructor(
    private readonly path: string,
    private readonly partOptions: PartFileOptions,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    this.flushEvery = partOptions.flushEvery ?? EARLY_FLUSH_BYTES;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    const opener =
      this.partOptions.open ?? ((path: string, flags: 'a' | 'w') => open(path, flags) as Promise<FileHandle>);
    opener(this.path, this.partOptions.flags).then((handle) => {
      this.handle = handle;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    // The last early flush must have succeeded before the file counts as complete.
    Promise.resolve(this.flushing).then(() => callback(this.flushError), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The descriptor stays open until its flush returns, so the flush never meets a reused number.
    const handle = this.handle;
    this.handle = null;
    Promise.resolve(this.flushing)
      .then(() => handle?.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    if (this.flushError) throw this.flushError;
    const handle = this.handle as PartHandle;
    let rest = buffers;
    let left = rest.reduce((sum, b) => sum + b.length, 0);
    while (left > 0) {
      const { bytesWritten } = await handle.writev(rest);
      if (bytesWritten <= 0) throw new Error(`could not write to ${this.path}`);
      this.unflushed += bytesWritten;
      left -= bytesWritten;
      rest = skip(rest, bytesWritten);
    }
    if (this.unflushed >= this.flushEvery && this.flushing === null && earlyFlushes < MAX_EARLY_FLUSHES)
      this.flushEarly(handle);
  }

  private flushEarly(handle: PartHandle): void {
    earlyFlushes += 1;
    this.unflushed = 0;
    this.flushing = handle
      .datasync()
      .catch((error: Error) => {
        // The code is kept: a full disk (ENOSPC) pauses the queue instead of failing the file.
        this.flushError = Object.assign(
          new Error(`the disk did not take ${this.path} (${error.message})`, { cause: error }),
          {
            code: (error as { code?: unknown }).code,
          },
        );
      })
      .finally(() => {
        earlyFlushes -= 1;
        this.flushing = null;
      });
  }
}

/** The buffers after the first `bytes` of them (a short write continues where it stopped). */
function skip(buffers: Buffer[], bytes: number): Buffer[] {
  const out: Buffer[] = [];
  let skipped = bytes;
  for (const buffer of buffers) {
    if (skipped >= buffer.length) {
      skipped -= buffer.length;
      continue;
    }
    out.push(skipped > 0 ? buffer.subarray(skipped) : buffer);
    skipped = 0;
  }
  return out;
}
