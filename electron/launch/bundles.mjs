// The studio's hosts as one JavaScript file each, built from the TypeScript under electron/ with their
// dependencies, rather than compiled file by file on the fly through tsx's loader:
// - `web`: the web host (out/web/cli.cjs). A start loads one script instead of compiling a few hundred
//   TypeScript files and resolving hundreds of dependency files (2.4 s before, 0.3 s now, to the host
//   listening on a 2-core machine).
// - `cli`: the command line, every `studio` command (out/cli/studio.cjs). Through tsx, every import() of
//   a worker's life was a round trip to the loader's own thread: music-metadata imports its parser at
//   each voiceover it measures (in CPU profiles, 2.5 ms a row on the loader's thread and about 1.4 ms on
//   the worker's own; docs/performance.md).
// Each is made after `npm install` and again whenever a source under electron/ is newer than it. They are
// CommonJS so that they can be compiled with V8's code cache (`loadBundle`): compiling 3.4 MB was most of
// what is left of a start, and Node 20 has no code cache for ES modules.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

const SOURCES = ['electron', 'package.json'];
/** Files a bundle reads beside itself at run time (they are run as scripts of their own). */
const BESIDE = ['electron/services/media/espeak-wasm.mjs'];
/** Each bundle: its entry, and the folder under out/ it is written to. */
const BUNDLES = {
  web: { entry: 'electron/web/cli.ts', dir: 'web', file: 'cli.cjs' },
  cli: { entry: 'electron/cli/bundle-entry.ts', dir: 'cli', file: 'studio.cjs' },
};

function bundleOf(name) {
  const bundle = BUNDLES[name];
  if (!bundle) throw new Error(`No bundle "${name}" (there are ${Object.keys(BUNDLES).join(', ')})`);
  return bundle;
}

export function bundlePath(root, name) {
  const { dir, file } = bundleOf(name);
  return join(root, 'out', dir, file);
}

/** V8's compiled code of the bundle, written after a start and checked by V8 against the source. */
function codeCachePath(root, name) {
  return `${bundlePath(root, name)}.v8cache`;
}

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function bundleIsStale(root, name) {
  const bundle = bundlePath(root, name);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return SOURCES.some((source) => existsSync(join(root, source)) && newestMtime(join(root, source)) > built);
}

/**
 * Builds the bundle `name` beside a temporary name and then renames it into place: two processes that
 * find it stale at once (workers started together) each build a whole one, and a start never reads half
 * a file.
 */
export async function buildBundle(root, name) {
  const { build } = await import('esbuild');
  const { entry, dir, file } = bundleOf(name);
  const outfile = bundlePath(root, name);
  // A folder of this process's own, so that the bundle keeps its name (its source map is found by it).
  const building = join(root, 'out', dir, `.building-${process.pid}`);
  mkdirSync(building, { recursive: true });
  rmSync(codeCachePath(root, name), { force: true });
  try {
    await build({
      entryPoints: [join(root, entry)],
      outfile: join(building, file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // import() of what loads only when used (the S3 SDK, the npm ffmpeg packages) becomes require():
      // a script compiled by node:vm has no module loader of its own to import with.
      supported: { 'dynamic-import': false },
      // The bundle lives in out/<dir>, as the ES module build did: the sources' import.meta reads the same.
      define: {
        'import.meta.dirname': '__dirname',
        'import.meta.filename': '__filename',
        'import.meta.url': 'studioBundleUrl',
      },
      // Dependencies are bundled too: resolving and loading hundreds of small files from node_modules
      // was most of a start (0.7 s against 0.27 s). Left out: what loads only when used (the S3 SDK),
      // the speech engine (its WASM files are found beside its package), and Electron.
      external: ['@aws-sdk/*', 'espeak-ng', 'electron', 'fsevents'],
      banner: { js: "const studioBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    for (const beside of BESIDE) copyFileSync(join(root, beside), join(root, 'out', dir, beside.split('/').at(-1)));
    renameSync(join(building, `${file}.map`), `${outfile}.map`);
    renameSync(join(building, file), outfile);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  // The first start is quick as well: the code cache is made now, in a process of its own (loading
  // the bundle runs its modules' top level, which must not touch the process that builds).
  const made = `import(${JSON.stringify(import.meta.url)}).then((m) => m.loadBundle(${JSON.stringify(root)}, ${JSON.stringify(name)}).saveCodeCache())`;
  spawnSync(process.execPath, ['--input-type=module', '-e', made], { stdio: 'ignore', timeout: 60_000 });
  return outfile;
}

/**
 * Runs the bundle as Node would require it, compiled from the code cache when one matches its source
 * (V8 refuses one that does not). Returns its exports, whether the cache was 'used', 'rejected' or
 * absent ('none'), and `saveCodeCache`, to be called once the host
 * has started and served: the cache then holds every function compiled so far, not only the top level.
 */
export function loadBundle(root, name) {
  const file = bundlePath(root, name);
  const cacheFile = codeCachePath(root, name);
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  let saved = cachedData !== undefined && !script.cachedDataRejected;
  const saveCodeCache = () => {
    if (saved) return;
    saved = true;
    try {
      writeFileSync(`${cacheFile}.${process.pid}.tmp`, script.createCachedData());
      renameSync(`${cacheFile}.${process.pid}.tmp`, cacheFile);
    } catch {
      // A read-only install folder: every start compiles the bundle, as it would without a cache.
    }
  };
  const codeCache = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return { exports: module.exports, codeCache, saveCodeCache };
}
