import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import type { CliIo } from '../../../electron/cli/command';

const dir = mkdtempSync(join(tmpdir(), 'studio-upload-cli-'));
let s3: S3rver;
let s3Env: Record<string, string> = {};
beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'cli-media', configs: [] }],
  });
  const { port } = await s3.run();
  s3Env = {
    STUDIO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    STUDIO_S3_BUCKET: 'cli-media',
    STUDIO_S3_PATH_STYLE: '1',
    STUDIO_S3_ACCESS_KEY_ID: 'S3RVER',
    STUDIO_S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
});
afterAll(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_DATA_DIR: join(dir, 'data'), ...env },
    cwd: dir,
  };
  return { io: value, out, err };
}

describe('studio upload', () => {
  it('prints a link from the sandbox storage that serves the file', async () => {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=green:s=32x32',
      '-frames:v',
      '1',
      join(dir, 'mark.png'),
    ]);
    const first = io();
    expect(await runCli(['upload', 'mark.png', '--json'], first.io)).toBe(0);
    const [result] = JSON.parse(first.out.join('\n')) as { url: string; how: string; storage: string }[];
    expect(result).toMatchObject({ how: 'uploaded', storage: 'sandbox' });
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/up-[0-9a-f]+-mark\.png$/);
  }, 120_000);

  it('uploads to the storage the environment declares, and never twice for the same bytes', async () => {
    const first = io(s3Env);
    expect(await runCli(['upload', 'mark.png', '--storage', 'environment'], first.io)).toBe(0);
    expect(first.out[0]).toContain(`${s3Env.STUDIO_S3_ENDPOINT}/cli-media/`);
    const second = io(s3Env);
    expect(await runCli(['upload', 'mark.png', '--storage', 'Environment S3'], second.io)).toBe(0);
    expect(second.out).toEqual(first.out);
    expect(second.err.join('\n')).toContain('already uploaded, link reused');
    expect(await fetch(second.out[0]).then((r) => r.status)).toBe(200);
  }, 120_000);

  it('exits 1 naming the file that is not media, and 2 without files', async () => {
    writeFileSync(join(dir, 'notes.mp4'), 'plain text');
    const bad = io();
    expect(await runCli(['upload', 'notes.mp4'], bad.io)).toBe(1);
    expect(bad.err.join('\n')).toMatch(/Could not upload notes\.mp4: .*not a picture, video or sound/);
    expect(bad.out).toEqual([]);
    expect(await runCli(['upload'], io().io)).toBe(2);
    expect(readFileSync(join(dir, 'notes.mp4'), 'utf8')).toBe('plain text');
  }, 120_000);
});
