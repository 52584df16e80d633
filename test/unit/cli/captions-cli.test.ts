import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { parseSrt } from '@common/captions/subtitle-files';

const dir = mkdtempSync(join(tmpdir(), 'captions-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { STUDIO_DATA_DIR: join(dir, 'data') },
    cwd: dir,
    stdin: async () => '',
  };
  return { io: value, out, err };
}

describe('studio captions burn', () => {
  it('burns the .srt beside a video into a copy and prints where', async () => {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=white:s=320x180:d=1:r=10',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      join(dir, 'Clip.mp4'),
    ]);
    writeFileSync(join(dir, 'Clip.srt'), '\uFEFF1\r\n00:00:00,100 --> 00:00:00,900\r\nПривет, мир\r\n');
    const { io: cli, out, err } = io();
    expect(await runCli(['captions', 'burn', 'Clip.mp4', '--data-dir', join(dir, 'data')], cli), err.join('\n')).toBe(
      0,
    );
    expect(out.join('\n')).toBe(`${join(dir, 'Clip (captions).mp4')}  1 caption burned in`);
    expect(existsSync(join(dir, 'Clip (captions).mp4'))).toBe(true);
  });

  it('names the missing captions file and a block it cannot read', async () => {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=white:s=320x180:d=1:r=10',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      join(dir, 'Bare.mp4'),
    ]);
    const missing = io();
    expect(await runCli(['captions', 'burn', 'Bare.mp4'], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toContain(`No captions at ${join(dir, 'Bare.srt')}`);
    writeFileSync(join(dir, 'bad.srt'), '1\n00:00:02,000 --> 00:00:01,000\nBackwards\n');
    const bad = io();
    expect(await runCli(['captions', 'burn', 'Bare.mp4', '--srt', 'bad.srt'], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toContain('Caption block 1 ends');
  });
});

describe('reading SubRip files', () => {
  it('reads numbered and unnumbered blocks, CRLF, "." before milliseconds and several lines', () => {
    expect(
      parseSrt('1\r\n00:00:01,250 --> 00:00:02,000\r\nOne\r\n\r\n00:00:03.5 --> 00:00:04.000\r\nTwo\r\nlines\r\n'),
    ).toEqual([
      { text: 'One', startMs: 1250, endMs: 2000 },
      { text: 'Two\nlines', startMs: 3500, endMs: 4000 },
    ]);
    expect(() => parseSrt('1\nno times here\n')).toThrow('Caption block 1 has no times');
  });
});
