import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MediaBinaryError,
  REQUIRED_FFMPEG,
  missingCapabilities,
  parseVersionLine,
  resolveMediaBinaries,
  resolveMediaBinary,
  type ResolveOptions,
} from '../../../electron/services/system/binaries';

const defaultRunForTest = (file: string, args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(file, args, { maxBuffer: 4 * 1024 * 1024 }, (error, stdout) =>
      resolve({ code: error ? 1 : 0, stdout: String(stdout) }),
    ),
  );

const VERSION = 'ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers\nbuilt with gcc 12\n';

function fakes(executables: string[], extra: Partial<ResolveOptions> = {}): ResolveOptions {
  const set = new Set(executables);
  return {
    env: {},
    platform: 'linux',
    isExecutable: (p) => set.has(p),
    run: async (file) => ({
      code: 0,
      stdout: file.includes('ffprobe') ? VERSION.replace('ffmpeg', 'ffprobe') : VERSION,
    }),
    loadPackagedFfmpeg: async () => null,
    ...extra,
  };
}

describe('resolveMediaBinary', () => {
  it('prefers the Settings path, then the environment, then ffmpeg-static, then PATH', async () => {
    const all = ['/opt/set/ffmpeg', '/opt/env/ffmpeg', '/pkg/ffmpeg', '/usr/bin/ffmpeg'];
    const options = fakes(all, {
      settings: { ffmpegPath: '/opt/set/ffmpeg' },
      env: { FFMPEG_BIN: '/opt/env/ffmpeg', PATH: '/usr/local/bin:/usr/bin' },
      loadPackagedFfmpeg: async () => '/pkg/ffmpeg',
    });
    expect(await resolveMediaBinary('ffmpeg', options)).toEqual({
      name: 'ffmpeg',
      path: '/opt/set/ffmpeg',
      source: 'settings',
      version: '5.1.9-0+deb12u1',
    });
    expect((await resolveMediaBinary('ffmpeg', { ...options, settings: {} })).source).toBe('env');
    expect((await resolveMediaBinary('ffmpeg', { ...options, settings: {}, env: { PATH: '/usr/bin' } })).path).toBe(
      '/pkg/ffmpeg',
    );
    const fromPath = await resolveMediaBinary('ffmpeg', {
      ...options,
      settings: {},
      env: { PATH: '/usr/local/bin:/usr/bin' },
      loadPackagedFfmpeg: async () => null,
    });
    expect(fromPath).toMatchObject({ path: '/usr/bin/ffmpeg', source: 'path' });
  });

  it('looks for ffprobe beside the packaged ffmpeg and reads FFPROBE_BIN', async () => {
    const options = fakes(['/pkg/ffprobe', '/env/ffprobe'], { loadPackagedFfmpeg: async () => '/pkg/ffmpeg' });
    expect((await resolveMediaBinary('ffprobe', options)).path).toBe('/pkg/ffprobe');
    expect((await resolveMediaBinary('ffprobe', { ...options, env: { FFPROBE_BIN: '/env/ffprobe' } })).source).toBe(
      'env',
    );
  });

  it('skips a candidate that does not answer -version', async () => {
    const options = fakes(['/broken/ffmpeg', '/usr/bin/ffmpeg'], {
      env: { FFMPEG_BIN: '/broken/ffmpeg', PATH: '/usr/bin' },
      run: async (file) => (file.startsWith('/broken') ? { code: 1, stdout: '' } : { code: 0, stdout: VERSION }),
    });
    expect((await resolveMediaBinary('ffmpeg', options)).path).toBe('/usr/bin/ffmpeg');
  });

  it('takes no program that does not answer -version as the binary it stands for (/bin/true is not ffprobe)', async () => {
    const options = fakes(['/bin/true', '/usr/bin/ffprobe'], {
      settings: { ffprobePath: '/bin/true' },
      env: { PATH: '/usr/bin' },
      run: async (file) => ({ code: 0, stdout: file === '/bin/true' ? '' : VERSION.replace('ffmpeg', 'ffprobe') }),
    });
    expect(await resolveMediaBinary('ffprobe', options)).toMatchObject({ path: '/usr/bin/ffprobe', source: 'path' });
    const ffmpegAsProbe = fakes(['/usr/bin/ffmpeg'], {
      settings: { ffprobePath: '/usr/bin/ffmpeg' },
      run: async () => ({ code: 0, stdout: VERSION }),
    });
    await expect(resolveMediaBinary('ffprobe', ffmpegAsProbe)).rejects.toThrow(
      /Settings: \/usr\/bin\/ffmpeg did not answer -version as ffprobe does/,
    );
  });

  it('names all four places when nothing is found', async () => {
    const options = fakes([], { settings: { ffmpegPath: '/nope/ffmpeg' }, env: { PATH: '/usr/bin' } });
    const error = await resolveMediaBinary('ffmpeg', options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaBinaryError);
    const message = (error as Error).message;
    expect(message).toMatch(/Settings: \/nope\/ffmpeg is not an executable file/);
    expect(message).toMatch(/FFMPEG_BIN: not set/);
    expect(message).toMatch(/ffmpeg-static: not set/);
    expect(message).toMatch(/PATH: not set/);
  });

  it('uses .exe names and ; separators on Windows', async () => {
    const options = fakes(['C:\\ff\\ffmpeg.exe'.replace(/\\/g, '/')], {
      platform: 'win32',
      env: { PATH: 'C:/x;C:/ff' },
    });
    expect((await resolveMediaBinary('ffmpeg', options)).path).toBe('C:/ff/ffmpeg.exe');
  });

  it('reports both binaries without throwing', async () => {
    const reports = await resolveMediaBinaries(fakes(['/usr/bin/ffmpeg'], { env: { PATH: '/usr/bin' } }));
    expect(reports[0]).toMatchObject({ name: 'ffmpeg', source: 'path', error: null });
    expect(reports[1]).toMatchObject({
      name: 'ffprobe',
      path: null,
      error: expect.stringMatching(/ffprobe was not found/),
    });
  });

  it('finds working binaries on this machine: the system ones, or else the npm-bundled ones', async () => {
    const reports = await resolveMediaBinaries({ env: { PATH: '/usr/bin' }, loadPackagedFfmpeg: async () => null });
    const system = reports[0].source === 'path';
    expect(reports.map((r) => r.source)).toEqual(system ? ['path', 'path'] : ['installer', 'installer']);
    expect(reports.map((r) => r.path)).toEqual(
      system
        ? ['/usr/bin/ffmpeg', '/usr/bin/ffprobe']
        : [expect.stringContaining('@ffmpeg-installer'), expect.stringContaining('@ffprobe-installer')],
    );
    expect(reports.every((r) => r.error === null && r.version)).toBe(true);
  });
});

describe('asking a program its version', () => {
  it('asks each program file once, again when the file changes, and again after it did not answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-version-'));
    try {
      const program = join(dir, 'ffprobe');
      const asked = join(dir, 'asked');
      const write = (answer: string) => {
        writeFileSync(program, `#!/bin/sh\necho x >> '${asked}'\n${answer}\n`);
        chmodSync(program, 0o755);
      };
      const times = () => readFileSync(asked, 'utf8').split('\n').filter(Boolean).length;
      const options: ResolveOptions = {
        env: {},
        settings: { ffprobePath: program },
        loadPackagedFfmpeg: async () => null,
      };
      write('exit 1');
      expect((await resolveMediaBinary('ffprobe', options).catch(() => null))?.path).not.toBe(program);
      write('echo "ffprobe version 9.1"');
      utimesSync(program, new Date(), new Date(Date.now() + 1_000));
      expect((await resolveMediaBinary('ffprobe', options)).version).toBe('9.1');
      await resolveMediaBinary('ffprobe', options);
      await resolveMediaBinary('ffprobe', options);
      expect(times()).toBe(2);
      write('echo "ffprobe version 9.2-upgraded"');
      utimesSync(program, new Date(), new Date(Date.now() + 2_000));
      expect((await resolveMediaBinary('ffprobe', options)).version).toBe('9.2-upgraded');
      expect(times()).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseVersionLine', () => {
  it('reads the version word', () => {
    expect(parseVersionLine(VERSION)).toBe('5.1.9-0+deb12u1');
    expect(parseVersionLine('ffprobe version n7.0 Copyright')).toBe('n7.0');
    expect(parseVersionLine('something else')).toBeNull();
  });
});

describe('the npm installer fallback', () => {
  const installer = { ffmpeg: '/nm/@ffmpeg-installer/ffmpeg', ffprobe: '/nm/@ffprobe-installer/ffprobe' };
  const listing = (names: string[]) => names.map((n) => ` ... ${n}  description`).join('\n');
  const base = (filters: string[]) => ({
    env: { PATH: '/nothing/here' },
    isExecutable: (p: string) => p.startsWith('/nm/'),
    loadPackagedFfmpeg: async () => null,
    loadInstallerBinary: async (b: 'ffmpeg' | 'ffprobe') => installer[b],
    run: async (file: string, args: string[]) => {
      if (args.includes('-version'))
        return { code: 0, stdout: `${file.includes('ffprobe') ? 'ffprobe' : 'ffmpeg'} version N-47683-static\n` };
      if (args.includes('-filters')) return { code: 0, stdout: listing(filters) };
      return { code: 0, stdout: listing(REQUIRED_FFMPEG.encoders) };
    },
  });

  it('is used last, and only when ffmpeg has every filter and encoder the compositor needs', async () => {
    expect(await resolveMediaBinary('ffmpeg', base(REQUIRED_FFMPEG.filters))).toMatchObject({
      path: installer.ffmpeg,
      source: 'installer',
    });
    expect(await resolveMediaBinary('ffprobe', base([]))).toMatchObject({
      path: installer.ffprobe,
      source: 'installer',
    });
    const lacking = resolveMediaBinary('ffmpeg', base(REQUIRED_FFMPEG.filters.filter((f) => f !== 'amix')));
    await expect(lacking).rejects.toThrow(
      /@ffmpeg-installer\/ffmpeg: \/nm\/@ffmpeg-installer\/ffmpeg lacks the amix filter/,
    );
  });

  it('comes before PATH and ffmpeg-static for the sandbox (preferShipped), after Settings and the environment', async () => {
    const everywhere = {
      ...base(REQUIRED_FFMPEG.filters),
      env: { PATH: '/usr/bin' },
      isExecutable: (p: string) => p.startsWith('/nm/') || p === '/usr/bin/ffmpeg' || p === '/pkg/ffmpeg',
      loadPackagedFfmpeg: async () => '/pkg/ffmpeg',
    };
    expect(await resolveMediaBinary('ffmpeg', everywhere)).toMatchObject({ path: '/pkg/ffmpeg', source: 'package' });
    expect(await resolveMediaBinary('ffmpeg', { ...everywhere, preferShipped: true })).toMatchObject({
      path: installer.ffmpeg,
      source: 'installer',
    });
    const chosen = { ...everywhere, preferShipped: true, isExecutable: (p: string) => p !== installer.ffmpeg };
    expect(
      await resolveMediaBinary('ffmpeg', { ...chosen, settings: { ffmpegPath: '/opt/mine/ffmpeg' } }),
    ).toMatchObject({ source: 'settings' });
    // A shipped ffmpeg that cannot be used leaves the usual order in place.
    expect(await resolveMediaBinary('ffmpeg', chosen)).toMatchObject({ path: '/pkg/ffmpeg', source: 'package' });
  });

  it('the shipped ffmpeg really has what the compositor needs', async () => {
    const { default: shipped } = (await import('@ffmpeg-installer/ffmpeg')) as unknown as { default: { path: string } };
    expect(await missingCapabilities(defaultRunForTest, shipped.path)).toEqual([]);
  });
});
