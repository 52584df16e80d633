import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, resolveOptions } from '../../../electron/emulator/options';
import { CATALOGUE_ROOT, SLOW } from './harness';

describe('sandbox flags', { timeout: SLOW }, () => {
  it('maps every flag to an option and rejects bad values by name', () => {
    expect(
      parseArgs([
        '--port',
        '0',
        '--job-seconds=1.5',
        '--api-key',
        'k',
        '--rate-limit',
        '3',
        '--fail-rate',
        '0.5',
        '--http-5xx-rate',
        '0.1',
      ]),
    ).toEqual({
      port: 0,
      jobSeconds: 1.5,
      apiKey: 'k',
      rateLimit: 3,
      failRate: 0.5,
      http5xxRate: 0.1,
    });
    expect(() => parseArgs(['--port', 'eighty'])).toThrow(/--port must be a number/);
    expect(() => parseArgs(['--bogus', '1'])).toThrow(/Unknown flag --bogus/);
    expect(() => parseArgs(['--credits'])).toThrow(/--credits needs a value/);
    expect(() => resolveOptions({ failRate: 2 })).toThrow(/failRate must be between 0 and 1/);
    expect(parseArgs(['--help'])).toEqual({ help: true });
  });

  it('takes the ready-made results the benches use, and refuses a file that is not there at start', () => {
    const clip = join(import.meta.dirname, 'cli.test.ts');
    expect(parseArgs(['--video-fixture', clip, '--speech-fixture=/tmp/speech.mp3'])).toEqual({
      videoFixture: clip,
      speechFixture: '/tmp/speech.mp3',
    });
    expect(resolveOptions({ videoFixture: clip }).videoFixture).toBe(clip);
    expect(() => resolveOptions({ videoFixture: join(import.meta.dirname, 'no-such-clip.mp4') })).toThrow(
      /videoFixture is not a file/,
    );
    expect(() => resolveOptions({ speechFixture: import.meta.dirname })).toThrow(/speechFixture is not a file/);
  });
});

describe('npm run emulator', { timeout: SLOW }, () => {
  it('prints its URL and credentials once it accepts requests', async () => {
    const child = spawn(
      'node_modules/.bin/tsx',
      ['electron/emulator/cli.ts', '--port', '0', '--api-key', 'cli-key', '--cache-dir', CATALOGUE_ROOT],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env },
      },
    );
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (m && out.includes('clientSecret')) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        });
      });
      expect(out).toContain('cli-key');
      const res = await fetch(`${url}/api/open/v3/voice/list`, { headers: { 'x-api-key': 'cli-key' } });
      expect(((await res.json()) as { code: number }).code).toBe(1000);
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  });
});
