import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/**
 * Finds ffmpeg and ffprobe. Order, first hit wins:
 *   1. the explicit path from Settings,
 *   2. FFMPEG_BIN / FFPROBE_BIN in the environment,
 *   3. the binary shipped by the optional ffmpeg-static package (loaded lazily; its download often
 *      fails, leaving it uninstalled, so its absence is normal). It ships ffmpeg only; an ffprobe beside
 *      that binary is used when present,
 *   4. `ffmpeg` / `ffprobe` on PATH,
 *   5. the binaries that the optional @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe packages
 *      ship inside their npm tarballs (so `npm install` alone gives working media tools), used only
 *      when ffmpeg has every filter and encoder the compositor and the sandbox use.
 * With `preferShipped` (the sandbox), 5 comes right after 2: the sandbox makes and measures its own
 * results, so the binaries shipped with the studio give the same results on every machine, and a
 * static build starts in a few milliseconds where a system build linking a hundred libraries takes
 * about 70 ms of CPU, which the sandbox paid for every voice it spoke and every file it measured.
 * A candidate counts only if it is an executable file that answers `-version`. When none does, the
 * error names every place and what was wrong at each.
 */

/** What the compositor, the previews and the sandbox ask of ffmpeg (checked on the npm fallback). */
export const REQUIRED_FFMPEG = {
  filters: [
    'scale',
    'setsar',
    'setpts',
    'overlay',
    'color',
    'crop',
    'fps',
    'format',
    'drawbox',
    'concat',
    'asetpts',
    'aresample',
    'aformat',
    'anullsrc',
    'atrim',
    'apad',
    'amix',
    'volume',
  ],
  encoders: ['libx264', 'aac', 'libmp3lame', 'mjpeg'],
};

export type MediaBinaryName = 'ffmpeg' | 'ffprobe';
export type BinarySource = 'settings' | 'env' | 'package' | 'path' | 'installer';

export interface ResolvedBinary {
  name: MediaBinaryName;
  path: string;
  source: BinarySource;
  /** e.g. "5.1.9-0+deb12u1" */
  version: string;
}

/** Same shape as the bridge's BinaryStatus, so system.info can return it as it is. */
export interface BinaryReport {
  name: MediaBinaryName;
  path: string | null;
  source: BinarySource | null;
  version: string | null;
  error: string | null;
}

export interface RunResult {
  code: number | null;
  stdout: string;
}

export interface ResolveOptions {
  settings?: { ffmpegPath?: string | null; ffprobePath?: string | null };
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** true when the path is an executable regular file. */
  isExecutable?: (path: string) => boolean;
  /** Runs `file args` and returns its exit code and stdout (for `-version`). */
  run?: (file: string, args: string[]) => Promise<RunResult>;
  /** The ffmpeg-static binary path, or null when the package is not installed. */
  loadPackagedFfmpeg?: () => Promise<string | null>;
  /** The @ffmpeg-installer / @ffprobe-installer binary path, or null when not installed. */
  loadInstallerBinary?: (binary: MediaBinaryName) => Promise<string | null>;
  /** Try the binaries shipped in the npm packages before any other install (see the order above). */
  preferShipped?: boolean;
}

export class MediaBinaryError extends Error {
  override name = 'MediaBinaryError';
  constructor(
    readonly binary: MediaBinaryName,
    readonly tried: string[],
  ) {
    super(
      `${binary} was not found. Looked in: ${tried.join('; ')}. ` +
        `Install ffmpeg (e.g. "apt install ffmpeg"), or set its path in Settings or ${envName(binary)}.`,
    );
  }
}

const envName = (binary: MediaBinaryName): string => (binary === 'ffmpeg' ? 'FFMPEG_BIN' : 'FFPROBE_BIN');

/** Finds one binary or throws a MediaBinaryError naming every place tried. */
export async function resolveMediaBinary(
  binary: MediaBinaryName,
  options: ResolveOptions = {},
): Promise<ResolvedBinary> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const isExecutable = options.isExecutable ?? defaultIsExecutable;
  const run = options.run ?? defaultRun;
  const exe = platform === 'win32' ? `${binary}.exe` : binary;
  const tried: string[] = [];

  const attempt = async (
    source: BinarySource,
    label: string,
    path: string | null | undefined,
  ): Promise<ResolvedBinary | null> => {
    if (!path) {
      tried.push(`${label}: not set`);
      return null;
    }
    if (!isExecutable(path)) {
      tried.push(`${label}: ${path} is not an executable file`);
      return null;
    }
    const version = await readVersion(run, path, binary);
    if (!version) {
      tried.push(`${label}: ${path} did not answer -version as ${binary} does`);
      return null;
    }
    return { name: binary, path, source, version };
  };

  const attemptInstaller = async (): Promise<ResolvedBinary | null> => {
    const label = binary === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe';
    const path = await (options.loadInstallerBinary ?? loadInstallerBinary)(binary).catch(() => null);
    const found = await attempt('installer', label, path);
    if (!found || binary === 'ffprobe') return found;
    const missing = await missingCapabilities(run, found.path);
    if (missing.length === 0) return found;
    tried.push(`${label}: ${found.path} lacks ${missing.join(', ')}`);
    return null;
  };

  const fromSettings = binary === 'ffmpeg' ? options.settings?.ffmpegPath : options.settings?.ffprobePath;
  const found =
    (await attempt('settings', 'Settings', fromSettings)) ??
    (await attempt('env', envName(binary), env[envName(binary)])) ??
    (options.preferShipped ? await attemptInstaller() : null) ??
    (await attempt('package', 'ffmpeg-static', await packagedPath(binary, exe, options))) ??
    (await attempt('path', 'PATH', searchPath(exe, env.PATH ?? env.Path, platform, isExecutable))) ??
    (options.preferShipped ? null : await attemptInstaller());
  if (found) return found;
  throw new MediaBinaryError(binary, tried);
}

/** Both binaries, for Settings / system.info: never throws, an entry carries its error instead. */
export async function resolveMediaBinaries(options: ResolveOptions = {}): Promise<BinaryReport[]> {
  const names: MediaBinaryName[] = ['ffmpeg', 'ffprobe'];
  return Promise.all(
    names.map(async (name): Promise<BinaryReport> => {
      try {
        const found = await resolveMediaBinary(name, options);
        return { ...found, error: null };
      } catch (error) {
        return { name, path: null, source: null, version: null, error: (error as Error).message };
      }
    }),
  );
}

/** Parses the first line of `ffmpeg -version` / `ffprobe -version`. */
export function parseVersionLine(output: string): string | null {
  const match = /^(?:ffmpeg|ffprobe) version (\S+)/m.exec(output);
  return match ? match[1] : null;
}

/**
 * What each program file answered to -version, by its path, size and modification time: every service
 * that resolves the binaries asks again, and a new file in the same place (an upgrade) is asked afresh.
 */
const answeredVersions = new Map<string, Promise<string | null>>();

/** The version, only when the program answers `-version` the way `binary` does (so /bin/true is not ffprobe). */
function readVersion(
  run: NonNullable<ResolveOptions['run']>,
  path: string,
  binary: MediaBinaryName,
): Promise<string | null> {
  if (run !== defaultRun) return askVersion(run, path, binary);
  let key: string;
  try {
    const stat = statSync(path);
    key = `${binary}\0${path}\0${stat.size}\0${stat.mtimeMs}`;
  } catch {
    return Promise.resolve(null);
  }
  const known = answeredVersions.get(key);
  if (known) return known;
  // A program that did not answer (or not as `binary`) is asked again next time: it may have been busy.
  const asked = askVersion(run, path, binary).then((version) => {
    if (version === null) answeredVersions.delete(key);
    return version;
  });
  answeredVersions.set(key, asked);
  return asked;
}

async function askVersion(
  run: NonNullable<ResolveOptions['run']>,
  path: string,
  binary: MediaBinaryName,
): Promise<string | null> {
  try {
    const result = await run(path, ['-hide_banner', '-version']);
    if (result.code !== 0 || !result.stdout.trimStart().startsWith(`${binary} version `)) return null;
    return parseVersionLine(result.stdout);
  } catch {
    return null;
  }
}

/**
 * Why `path` cannot be used as `binary` (missing, not executable, not answering -version as it
 * does), or null when it can. Settings paths from the page pass this before they are stored.
 */
export async function binaryPathProblem(
  binary: MediaBinaryName,
  path: string,
  options: Pick<ResolveOptions, 'isExecutable' | 'run'> = {},
): Promise<string | null> {
  if (!existsSync(path)) return `${path} does not exist`;
  if (!(options.isExecutable ?? defaultIsExecutable)(path)) return `${path} is not an executable file`;
  if (!(await readVersion(options.run ?? defaultRun, path, binary)))
    return `${path} does not answer -version as ${binary} does`;
  return null;
}

/** Filters and encoders from REQUIRED_FFMPEG that this ffmpeg does not list. */
export async function missingCapabilities(run: NonNullable<ResolveOptions['run']>, path: string): Promise<string[]> {
  const names = async (args: string[]) => {
    const result = await run(path, ['-hide_banner', ...args]).catch(() => ({ code: 1, stdout: '' }));
    return new Set(
      result.stdout
        .split('\n')
        .map((line) => line.trim().split(/\s+/)[1])
        .filter(Boolean),
    );
  };
  const [filters, encoders] = await Promise.all([names(['-filters']), names(['-encoders'])]);
  return [
    ...REQUIRED_FFMPEG.filters.filter((f) => !filters.has(f)).map((f) => `the ${f} filter`),
    ...REQUIRED_FFMPEG.encoders.filter((e) => !encoders.has(e)).map((e) => `the ${e} encoder`),
  ];
}

async function loadInstallerBinary(binary: MediaBinaryName): Promise<string | null> {
  const specifier = binary === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe';
  try {
    const mod = (await import(specifier)) as { default?: { path?: unknown }; path?: unknown };
    const path = mod.default?.path ?? mod.path;
    return typeof path === 'string' ? path.replace(`app.asar${'/'}`, 'app.asar.unpacked/') : null;
  } catch {
    return null;
  }
}

async function packagedPath(binary: MediaBinaryName, exe: string, options: ResolveOptions): Promise<string | null> {
  const load = options.loadPackagedFfmpeg ?? loadFfmpegStatic;
  const ffmpeg = await load().catch(() => null);
  if (!ffmpeg) return null;
  return binary === 'ffmpeg' ? ffmpeg : join(dirname(ffmpeg), exe);
}

function searchPath(
  exe: string,
  pathVar: string | undefined,
  platform: NodeJS.Platform,
  isExecutable: (p: string) => boolean,
): string | null {
  if (!pathVar) return null;
  const sep = platform === 'win32' ? ';' : delimiter;
  for (const dir of pathVar.split(sep)) {
    if (!dir) continue;
    const candidate = join(dir, exe);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** ffmpeg-static is optional and often absent: load it only when asked, and treat failure as absence. */
async function loadFfmpegStatic(): Promise<string | null> {
  const specifier = 'ffmpeg-static';
  try {
    const mod = (await import(specifier)) as { default?: unknown };
    const path = typeof mod.default === 'string' ? mod.default : null;
    // Inside a packaged app the binary lives in the unpacked copy of the archive.
    return path ? path.replace(`app.asar${'/'}`, 'app.asar.unpacked/') : null;
  } catch {
    return null;
  }
}

function defaultIsExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function defaultRun(file: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout) });
    });
  });
}
