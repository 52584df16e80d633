import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bundledFontsDir } from '../../../electron/services/text/text-pictures';
import { starterTemplatesDir } from '../../../electron/services/projects/templates';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const config = createRequire(import.meta.url)(join(root, 'electron-builder.config.cjs')) as {
  appId: string;
  icon: string;
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  electronFuses: Record<string, boolean>;
  electronVersion: string;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
  allowScripts: Record<string, boolean>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; dev?: boolean }>;
};

/** Whether electron-builder's file patterns (later "!" patterns exclude) take a path into the archive. */
function packed(path: string): boolean {
  let taken = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (minimatch(path, pattern.slice(1), { dot: true })) taken = false;
    } else if (minimatch(path, pattern, { dot: true })) taken = true;
  }
  return taken;
}

describe('packaging (electron-builder)', () => {
  it('targets AppImage and deb, dmg and NSIS, with the app id and the icon from resources/', () => {
    expect(config.appId).toBe('app.avatarstudio.desktop');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.icon).toBe('resources/icons/icon.png');
    expect(readFileSync(join(root, config.icon)).subarray(1, 4).toString()).toBe('PNG');
    expect(config.electronVersion).toMatch(/^41\./);
    expect(pkg.scripts.dist).toBe('node electron/launch/dist.mjs');
  });

  it("passes electron-builder's own schema check (a misspelt option or fuse fails it)", async () => {
    const { validateConfiguration } = createRequire(import.meta.url)(
      join(root, 'node_modules/app-builder-lib/out/util/config/config.js'),
    ) as {
      validateConfiguration: (config: unknown, logger: { isEnabled: boolean }) => Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false })).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } },
        { isEnabled: false },
      ),
    ).rejects.toThrow(/electronFuses/);
  });

  it('sets every fuse of the security checklist', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('packs the built app and nothing of the sources, tests, maps or the bundles that run on Node', () => {
    expect(packed(pkg.main)).toBe(true);
    for (const file of [
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      'package.json',
    ])
      expect(packed(file), file).toBe(true);
    for (const file of [
      'electron/main/index.ts',
      'renderer/src/App.vue',
      'test/unit/x.test.ts',
      'out/renderer/assets/index-abc.js.map',
      'out/web/cli.cjs',
      'out/cli/studio.cjs',
      'out/cli/studio.cjs.v8cache',
      'README.md',
    ])
      expect(packed(file), file).toBe(false);
  });

  it('unpacks the media binaries and the database addon from the archive, so they can run and load', () => {
    const unpacked = (path: string) => config.asarUnpack.some((pattern) => minimatch(path, pattern, { dot: true }));
    expect(unpacked('node_modules/ffmpeg-static/ffmpeg')).toBe(true);
    expect(unpacked('node_modules/@ffmpeg-installer/linux-x64/ffmpeg')).toBe(true);
    expect(unpacked('node_modules/@ffprobe-installer/linux-x64/ffprobe')).toBe(true);
    // libsql's loader requires its platform package's addon by name (`@libsql/<platform>/index.node`).
    for (const platform of ['linux-x64-gnu', 'darwin-arm64', 'win32-x64-msvc'])
      expect(unpacked(`node_modules/@libsql/${platform}/index.node`), platform).toBe(true);
    expect(unpacked('node_modules/libsql/index.js')).toBe(true);
  });

  // The installed layout: <resources>/app.asar/out/main/index.js and <resources>/<to>/.
  it.each([
    ['text fonts', 'resources/fonts', bundledFontsDir],
    ['starter templates', 'resources/templates', starterTemplatesDir],
  ] as const)('ships the %s beside the archive, where the packaged main process finds them', (_what, from, find) => {
    const entry = config.extraResources.find((e) => e.from === from);
    expect(entry).toBeDefined();
    const installed = mkdtempSync(join(tmpdir(), 'studio-packaged-'));
    try {
      const resources = join(installed, 'resources');
      mkdirSync(join(resources, 'app.asar', 'out', 'main'), { recursive: true });
      cpSync(join(root, entry!.from), join(resources, entry!.to), { recursive: true });
      expect(find(join(resources, 'app.asar', 'out', 'main'))).toBe(join(resources, entry!.to));
    } finally {
      rmSync(installed, { recursive: true, force: true });
    }
  });

  it("installs without Electron's download script, which postinstall runs and lets fail", () => {
    expect(pkg.allowScripts.electron).toBe(false);
    expect(pkg.scripts.postinstall).toBe('node electron/launch/postinstall.mjs');
  });

  it('keeps Electron optional (npm before 11 runs its download and drops it on failure instead of failing the install)', () => {
    expect(pkg.optionalDependencies.electron).toMatch(/^\^41\./);
    expect(pkg.devDependencies.electron).toBeUndefined();
    expect(lock.packages['node_modules/electron']).toMatchObject({ optional: true });
    expect(lock.packages['node_modules/electron'].dev).toBeUndefined();
    // electron-builder packages the Electron the lock pins, which is the one installed.
    expect(config.electronVersion).toBe(lock.packages['node_modules/electron'].version);
    expect(config.electronVersion).toBe(
      (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
        .version,
    );
  });
});
