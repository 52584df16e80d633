// @isolate: it counts the free blocks of the aligned block pool, which is module state: shared with
// every file before it in a worker, a download another file left running could take or give back a
// block while this file counts.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIRECT_ALIGN, freeAlignedBlocks } from '../../../electron/services/downloads/aligned-blocks';
import {
  DirectPartFile,
  openPartFile,
  type DirectHandle,
  type DirectOpen,
} from '../../../electron/services/downloads/direct-part-file';
import { until } from '../../wait';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'direct-part-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function openDirect(path: string, flags: 'a' | 'w', opener?: DirectOpen): Promise<DirectPartFile> {
  const file = await DirectPartFile.open(path, flags, opener);
  // This machine's file system takes direct writes; a null here means the studio fell back unasked.
  if (!file) throw new Error('direct writes were not used');
  return file;
}

/** Writes `data` in chunks of awkward sizes, ends the file and waits until it is closed. */
async function writeAll(file: DirectPartFile, data: Buffer): Promise<void> {
  const sizes = [1, 4095, 70_000, 1_048_576, 333, 2_000_000];
  let at = 0;
  for (let i = 0; at < data.length; i += 1) {
    const next = Math.min(data.length, at + sizes[i % sizes.length]);
    if (!file.write(data.subarray(at, next))) await once(file, 'drain');
    at = next;
  }
  file.end();
  await once(file, 'close');
}

/** The real files, with the direct handle's writes answered by `fail` where it says so. */
function failingDirectWrites(fail: (call: number) => Error | null, events: string[] = []): DirectOpen {
  return async (path, how, truncate) => {
    const handle = await openPartFile(path, how, truncate);
    let calls = 0;
    const wrapped: DirectHandle = {
      write: (buffer, offset, length, position) => {
        events.push(`${how} write ${length}`);
        const error = how === 'direct' ? fail(calls++) : null;
        return error ? Promise.reject(error) : handle.write(buffer, offset, length, position);
      },
      read: (...args) => handle.read(...args),
      stat: () => handle.stat(),
      datasync: () => (events.push(`${how} datasync`), handle.datasync()),
      close: () => handle.close(),
    };
    return wrapped;
  };
}

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('a .part written around the page cache', () => {
  it('holds exactly the bytes given, in chunks of any size, with a last partial page', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 1234);
    const path = join(folder, 'clip.mp4.part');
    await writeAll(await openDirect(path, 'w'), data);
    expect(readFileSync(path).equals(data)).toBe(true);
  });

  it('continues a partial file whose length is off a page boundary', async () => {
    const path = join(folder, 'clip.mp4.part');
    const head = randomBytes(5000);
    const rest = randomBytes(2 * 1024 * 1024 + 77);
    writeFileSync(path, head);
    await writeAll(await openDirect(path, 'a'), rest);
    expect(readFileSync(path).equals(Buffer.concat([head, rest]))).toBe(true);
  });

  it('starts over when told to, whatever was there', async () => {
    const path = join(folder, 'clip.mp4.part');
    writeFileSync(path, randomBytes(9000));
    const data = randomBytes(10_000);
    await writeAll(await openDirect(path, 'w'), data);
    expect(readFileSync(path).equals(data)).toBe(true);
  });

  it('hands whole pages to the disk as they arrive, so a crash loses less than a page of what came', async () => {
    const path = join(folder, 'clip.mp4.part');
    const file = await openDirect(path, 'w');
    await new Promise<void>((resolve, reject) =>
      file.write(randomBytes(10 * 1024), (error) => (error ? reject(error) : resolve())),
    );
    // The write started with the chunk settles on its own; nothing else is sent.
    await until(
      'the write started with the chunk to settle at two pages',
      () => statSync(path).size === 2 * DIRECT_ALIGN,
    );
    expect(statSync(path).size).toBe(2 * DIRECT_ALIGN);
    file.destroy();
    await once(file, 'close');
  });

  it('writes the last partial page through the cache and flushes it there before the file counts as written', async () => {
    const events: string[] = [];
    const path = join(folder, 'clip.mp4.part');
    await writeAll(
      await openDirect(
        path,
        'w',
        failingDirectWrites(() => null, events),
      ),
      randomBytes(DIRECT_ALIGN + 10),
    );
    expect(events).toEqual([`direct write ${DIRECT_ALIGN}`, 'cached write 10', 'cached datasync']);
    expect(statSync(path).size).toBe(DIRECT_ALIGN + 10);
  });

  it('a file system that refuses direct writes gets the same bytes through the cache, and so do its later files', async () => {
    const path = join(folder, 'clip.mp4.part');
    const data = randomBytes(1024 * 1024 + 5000);
    await writeAll(
      await openDirect(
        path,
        'w',
        failingDirectWrites(() => withCode('EINVAL')),
      ),
      data,
    );
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(await DirectPartFile.open(join(folder, 'next.mp4.part'), 'w')).toBeNull();
  });

  it('a file system that refuses direct reads leaves a partial file to the cache, untouched', async () => {
    const path = join(folder, 'clip.mp4.part');
    const head = randomBytes(5000);
    writeFileSync(path, head);
    const refusingReads: DirectOpen = async (...args) => {
      const handle = await openPartFile(...args);
      return {
        write: handle.write.bind(handle),
        stat: handle.stat.bind(handle),
        datasync: handle.datasync.bind(handle),
        close: handle.close.bind(handle),
        read: () => Promise.reject(withCode('EINVAL')),
      };
    };
    const free = freeAlignedBlocks();
    expect(await DirectPartFile.open(path, 'a', refusingReads)).toBeNull();
    expect(readFileSync(path).equals(head)).toBe(true);
    // Its blocks are back by the time it answers, for the next file to take.
    expect(freeAlignedBlocks()).toBe(free);
  });

  it('a write the disk fails fails the file, keeping the code (a full disk pauses the queue)', async () => {
    const path = join(folder, 'clip.mp4.part');
    const file = await openDirect(
      path,
      'w',
      failingDirectWrites(() => withCode('ENOSPC')),
    );
    file.on('error', () => undefined);
    file.write(randomBytes(DIRECT_ALIGN));
    file.end(randomBytes(DIRECT_ALIGN));
    const [error] = (await once(file, 'error')) as [Error & { code?: string }];
    expect(error.code).toBe('ENOSPC');
    expect(error.message).toContain('clip.mp4.part');
  });

  it('gives its aligned blocks back however it ends', async () => {
    const before = freeAlignedBlocks();
    for (let i = 0; i < 12; i += 1)
      await writeAll(await openDirect(join(folder, `f${i}.part`), 'w'), randomBytes(20_000));
    const abandoned = await openDirect(join(folder, 'abandoned.part'), 'w');
    abandoned.write(randomBytes(50_000));
    abandoned.destroy();
    await once(abandoned, 'close');
    expect(freeAlignedBlocks()).toBe(before);
  });
});
