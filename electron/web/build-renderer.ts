import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Files whose change means the built page is stale. */
const SOURCES = ['renderer', 'electron/common', 'electron/web/vite.renderer.config.ts', 'package.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when out/renderer is missing or older than any renderer source. */
export function rendererIsStale(root: string): boolean {
  const index = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

function runViteBuild(root: string, outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      join(root, 'node_modules', '.bin', 'vite'),
      ['build', '--config', 'electron/web/vite.renderer.config.ts', '--logLevel', 'warn'],
      {
        cwd: root,
        env: { ...process.env, STUDIO_RENDERER_OUT: outDir },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The renderer build failed (vite exited with ${code})`)),
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Old hashed chunks are kept this long, so a page loaded before a rebuild can still lazy-load its own. */
const KEEP_OLD_ASSETS_MS = 60 * 60_000;

/**
 * Puts a fresh build in place without pulling files from under a page that is already open: the new
 * (content-hashed) assets are added beside the old ones, and index.html is replaced last.
 */
function install(fresh: string, target: string): void {
  mkdirSync(target, { recursive: true });
  const assets = join(target, 'assets');
  if (existsSync(assets)) {
    for (const name of readdirSync(assets)) {
      const file = join(assets, name);
      if (Date.now() - statSync(file).mtimeMs > KEEP_OLD_ASSETS_MS) rmSync(file, { force: true });
    }
  }
  cpSync(fresh, target, { recursive: true, filter: (source) => source !== join(fresh, 'index.html') });
  copyFileSync(join(fresh, 'index.html'), join(target, 'index.html'));
}

/**
 * Builds the renderer into out/renderer when it is missing or stale. Builds go to a fresh folder that
 * is installed at the end, under a lock, so parallel callers (several test runs, a running web host)
 * never see a half-written page. Returns whether a build ran.
 */
export async function ensureRendererBuilt(
  root: string,
  options: { force?: boolean; onBuild?: () => void } = {},
): Promise<boolean> {
  const out = join(root, 'out');
  const lock = join(out, '.renderer-build.lock');
  mkdirSync(out, { recursive: true });
  for (;;) {
    if (!options.force && !rendererIsStale(root)) return false;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building; a lock older than five minutes belongs to a build that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 5 * 60_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(250);
      if (options.force && !existsSync(lock)) return false;
    }
  }
  try {
    if (!options.force && !rendererIsStale(root)) return false;
    options.onBuild?.();
    const fresh = join(out, `.renderer-${process.pid}-${Date.now()}`);
    await runViteBuild(root, fresh);
    try {
      install(fresh, join(out, 'renderer'));
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
