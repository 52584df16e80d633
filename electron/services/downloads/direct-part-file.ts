import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { DIRECT_ALIGN, DIRECT_BLOCK, returnAlignedBlocks, takeAlignedBlocks } from './aligned-blocks';

/** What a DirectPartFile needs of an open file (a FileHandle; tests pass one that fails). */
export interface DirectHandle {
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** 'direct' bypasses the page cache; 'cached' is the same file through it (for what direct cannot take). */
export type DirectOpen = (path: string, how: 'direct' | 'cached', truncate: boolean) => Promise<DirectHandle>;

export const openPartFile: DirectOpen = (path, how, truncate) =>
  how === 'direct'
    ? open(path, constants.O_RDWR | constants.O_CREAT | constants.O_DIRECT | (truncate ? constants.O_TRUNC : 0))
    : open(path, 'r+');

/** Folders whose file system refused a direct write; their later downloads go through the page cache. */
const refusedFolders = new Set<string>();

/**
 * The `.part` of a download written around the page cache (O_DIRECT, Linux only). Every file is flushed
 * before it gets its name, and on this kind of machine the kernel wrote cached pages back at a third of
 * what the disk takes directly, so a flushed download ran at half the speed of one left in the cache.
 * Bytes are copied into two aligned blocks: one fills while the other is written, and whatever whole pages
 * have arrived are written as soon as the disk is free, so a crash loses less than a page plus what the
 * disk had not yet taken. The last partial page goes through the page cache (a direct write could only
 * carry it padded, and a crash then would leave the padding looking like data). A write the file system
 * refuses (EINVAL) is made again through the page cache, and so is the rest of that folder's downloads.
 */
export class DirectPartFile extends Writable {
  private filling: Buffer;
  private spare: Buffer;
  /** Bytes in `filling`; its first byte belongs at `position` in the file (a multiple of a page). */
  private fill = 0;
  private position = 0;
  private writing: Promise<void> | null = null;
  private writeError: Error | null = null;
  private cached: DirectHandle | null = null;

  private constructor(
    private readonly path: string,
    private readonly handle: DirectHandle,
    blocks: Buffer[],
    private readonly opener: DirectOpen,
  ) {
    super({ highWaterMark: DIRECT_BLOCK });
    [this.filling, this.spare] = blocks;
  }

  /**
   * The file opened for direct writes ('a' continues it, 'w' starts it over), or null where that cannot
   * be done (another system, a file system without O_DIRECT, every aligned block in use).
   */
  static async open(path: string, flags: 'a' | 'w', opener: DirectOpen = openPartFile): Promise<DirectPartFile | null> {
    if (constants.O_DIRECT === undefined || refusedFolders.has(dirname(path))) return null;
    const blocks = takeAlignedBlocks(2);
    if (!blocks) return null;
    let handle: DirectHandle;
    try {
      handle = await opener(path, 'direct', flags === 'w');
    } catch (error) {
      returnAlignedBlocks(blocks);
      if (isRefusal(error)) return null;
      throw error;
    }
    const file = new DirectPartFile(path, handle, blocks, opener);
    try {
      if (flags === 'a') await file.takeUpTail();
    } catch (error) {
      // Its blocks go back once its handle is closed: wait for that, so the next file opened finds them.
      await new Promise<void>((resolve) =>
        file
          .on('error', () => undefined)
          .once('close', resolve)
          .destroy(),
      );
      if (!isRefusal(error)) throw error;
      refusedFolders.add(dirname(path));
      return null;
    }
    return file;
  }

  /** Continuing: the partial page at the end is read back, to be written again whole. */
  private async takeUpTail(): Promise<void> {
    const { size } = await this.handle.stat();
    this.position = size - (size % DIRECT_ALIGN);
    if (size === this.position) return;
    const { bytesRead } = await this.handle.read(this.filling, 0, DIRECT_ALIGN, this.position);
    if (bytesRead !== size - this.position) throw new Error(`could not read back the end of ${this.path}`);
    this.fill = bytesRead;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.take(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.finishWrites().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The blocks go back only once no write reads them.
    Promise.resolve(this.writing)
      .then(() => Promise.all([this.handle.close(), this.cached?.close()]))
      .finally(() => returnAlignedBlocks([this.filling, this.spare]))
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  private async take(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const count = Math.min(chunk.length - offset, DIRECT_BLOCK - this.fill);
      chunk.copy(this.filling, this.fill, offset, offset + count);
      this.fill += count;
      offset += count;
      if (this.fill === DIRECT_BLOCK) await this.handOver();
    }
    if (this.writing === null) await this.handOver();
  }

  /** Waits for the write under way, then starts one of the whole pages filled; the rest moves over. */
  private async handOver(): Promise<void> {
    await this.writing;
    if (this.writeError) throw this.writeError;
    const length = this.fill - (this.fill % DIRECT_ALIGN);
    if (length === 0) return;
    const full = this.filling;
    const at = this.position;
    full.copy(this.spare, 0, length, this.fill);
    this.filling = this.spare;
    this.spare = full;
    this.fill -= length;
    this.position += length;
    this.writing = this.writeAt(full, length, at)
      .catch((error: Error) => {
        // The code is kept: a full disk (ENOSPC) pauses the queue instead of failing the file.
        this.writeError = Object.assign(
          new Error(`the disk did not take ${this.path} (${error.message})`, { cause: error }),
          {
            code: (error as { code?: unknown }).code,
          },
        );
      })
      .finally(() => {
        this.writing = null;
      });
  }

  private async writeAt(buffer: Buffer, length: number, position: number): Promise<void> {
    let done = 0;
    while (done < length) {
      const through = this.cached ?? this.handle;
      let written: number;
      try {
        ({ bytesWritten: written } = await through.write(buffer, done, length - done, position + done));
      } catch (error) {
        if (this.cached || !isRefusal(error)) throw error;
        refusedFolders.add(dirname(this.path));
        await this.useCache();
        continue;
      }
      if (written <= 0) throw new Error(`could not write to ${this.path}`);
      done += written;
      // A short direct write leaves the rest off a page boundary, where only the cache can continue.
      if (done < length && done % DIRECT_ALIGN !== 0) await this.useCache();
    }
  }

  private async useCache(): Promise<void> {
    this.cached ??= await this.opener(this.path, 'cached', false);
  }

  /** Every byte written, the last partial page through the cache and flushed there (see the class). */
  private async finishWrites(): Promise<void> {
    await this.handOver();
    await this.writing;
    if (this.writeError) throw this.writeError;
    if (this.fill > 0) {
      await this.useCache();
      await this.writeAt(this.filling, this.fill, this.position);
      this.position += this.fill;
      this.fill = 0;
    }
    // A flush through another descriptor later would not report a failed write-back of these pages.
    await this.cached?.datasync();
  }
}

/** The file system cannot take direct writes here (not a fault of the disk or of the data). */
function isRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EINVAL' || code === 'EOPNOTSUPP';
}
