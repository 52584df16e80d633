// The uploader's record of links at a campaign's scale: N distinct files uploaded through the Uploader
// on the folder's records database (a storage that answers at once, so what is measured is hashing and
// the record), then each uploaded again (a lookup that reuses its link). Prints the time per upload and
// how much the heap and RSS grew, every 10,000 uploads and at the end.
// Run alone: node --expose-gc --import tsx test/bench/uploads-records.measure.ts [uploads]   (default 30,000).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecords } from '../../electron/services/records/open-ledger';
import type { StorageBackend } from '../../electron/services/storage/backend';
import { Uploader } from '../../electron/services/storage/uploader';

const UPLOADS = Number(process.argv[2] ?? 30_000);
const WEEK = 7 * 86_400_000;

// A presigned link as S3 gives one (about 400 characters), so a record is as large as a real one.
const backend: StorageBackend = {
  upload: async (input) => ({
    url: `https://bucket.example.com/studio/${input.key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAXXXXXXXXXXXXXXXX%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261127T000000Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=${'a'.repeat(64)}`,
    expiresAt: Date.now() + WEEK,
  }),
  relink: async () => null,
  isCurrent: async () => true,
  test: async () => 'ok',
};

const collect = (): void => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'uploads-measure-'));
  try {
    const files = join(work, 'files');
    mkdirSync(files);
    const paths = Array.from({ length: UPLOADS }, (_, i) => {
      const path = join(files, `row-${i}-picture.png`);
      writeFileSync(path, `bytes of file ${i}`);
      return path;
    });
    const uploader = new Uploader({ records: openRecords(join(work, 'data')).uploads, backend: async () => backend });
    collect();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    const grown = (): string => {
      collect();
      const { heapUsed, rss } = process.memoryUsage();
      return `heap +${mb(heapUsed - heap0)} MB, RSS +${mb(rss - rss0)} MB`;
    };
    let started = performance.now();
    for (let i = 0; i < UPLOADS; i += 1) {
      await uploader.uploadFile(paths[i] as string, 'env');
      if ((i + 1) % 10_000 === 0)
        console.log(`${i + 1} uploaded: ${((performance.now() - started) / (i + 1)).toFixed(3)} ms each, ${grown()}`);
    }
    const uploadMs = performance.now() - started;
    started = performance.now();
    let reused = 0;
    for (const path of paths) if ((await uploader.uploadFile(path, 'env')).how === 'reused') reused += 1;
    const lookupMs = performance.now() - started;
    console.log(
      `${UPLOADS} uploads: ${(uploadMs / UPLOADS).toFixed(3)} ms each; again: ${(lookupMs / UPLOADS).toFixed(3)} ms each (${reused} reused); ${grown()}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
