import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PartFile, type PartHandle } from '../../../electron/services/downloads/part-file';

/** A file in memory whose flushes the test answers by hand; `events` tells the order things happened in. */
function fakeFile(options: { maxWrite?: number } = {}) {
  const events: string[] = [];
  const written: Buffer[] = [];
  const flushes: { resolve(): void; reject(error: Error): void }[] = [];
  const handle: PartHandle = {
    async writev(buffers) {
      const all = Buffer.concat(buffers).subarray(0, options.maxWrite ?? Number.POSITIVE_INFINITY);
      written.push(all);
      events.push(`write ${all.length}`);
      return { bytesWritten: all.length };
    },
    datasync() {
      events.push('flush');
      return new Promise<void>((resolve, reject) =>
        flushes.push({ resolve: () => (events.push('flushed'), resolve()), reject }),
      );
    },
    async close() {
      events.push('close');
    },
  };
  return { handle, events, flushes, bytes: () => Buffer.concat(written) };
}

function partFile(handle: PartHandle, flushEvery = 1000): PartFile {
  return new PartFile('/downloads/clip.mp4.part', { flags: 'w', flushEvery, open: async () => handle });
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the .part file of a download', () => {
  it('asks the disk for its bytes while they arrive, and closes only once that flush has returned', async () => {
    const file = fakeFile();
    const part = partFile(file.handle);
    for (const fill of [1, 2, 3]) {
      part.write(Buffer.alloc(400, fill));
      await tick();
    }
    // 1,200 bytes written: one flush under way, not awaited by the writes.
    expect(file.events).toEqual(['write 400', 'write 400', 'write 400', 'flush']);
    part.write(Buffer.alloc(400, 4));
    part.end();
    await tick();
    expect(file.events).not.toContain('close');
    file.flushes[0].resolve();
    await once(part, 'close');
    expect(file.events.slice(-2)).toEqual(['flushed', 'close']);
    expect(file.bytes().length).toBe(1600);
  });

  it('an abandoned file (a pause, a dropped connection) also keeps its descriptor until its flush returns', async () => {
    const file = fakeFile();
    const part = partFile(file.handle);
    part.write(Buffer.alloc(1500));
    await tick();
    part.destroy();
    await tick();
    expect(file.events).toEqual(['write 1500', 'flush']);
    file.flushes[0].resolve();
    await once(part, 'close');
    expect(file.events.slice(-2)).toEqual(['flushed', 'close']);
  });

  it('fails when an early flush fails, naming the file and the cause', async () => {
    const file = fakeFile();
    const part = partFile(file.handle);
    const failed = once(part, 'error');
    part.write(Buffer.alloc(1500));
    await tick();
    file.flushes[0].reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    part.end();
    const [error] = (await failed) as [Error & { code?: string }];
    expect(error.message).toBe('the disk did not take /downloads/clip.mp4.part (EIO: i/o error, fdatasync)');
    expect(error.code).toBe('EIO');
  });

  it('continues a short write where it stopped', async () => {
    const file = fakeFile({ maxWrite: 300 });
    const part = partFile(file.handle, 1e9);
    const body = Buffer.from(Array.from({ length: 2000 }, (_, i) => i % 251));
    part.write(body.subarray(0, 700));
    part.write(body.subarray(700));
    part.end();
    await once(part, 'close');
    expect(file.bytes().equals(body)).toBe(true);
  });

  it('runs at most two early flushes at once across all files, so writes keep threads to run on', async () => {
    const files = [fakeFile(), fakeFile(), fakeFile()];
    const parts = files.map((file) => partFile(file.handle));
    for (const part of parts) part.write(Buffer.alloc(1500));
    await tick();
    expect(files.map((file) => file.flushes.length)).toEqual([1, 1, 0]);
    files[0].flushes[0].resolve();
    await tick();
    parts[2].write(Buffer.alloc(10));
    await tick();
    expect(files[2].flushes.length).toBe(1);
    for (const [i, part] of parts.entries()) {
      part.end();
      for (const flush of files[i].flushes) flush.resolve();
      await once(part, 'close');
    }
  });
});
