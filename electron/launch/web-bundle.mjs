// The web host as one JavaScript file (out/web/cli.cjs), so a start loads one script instead of
// compiling a few hundred TypeScript files on the fly and resolving hundreds of dependency files
// (2.4 s before, 0.3 s now, to the host listening on a 2-core machine).
// Made after `npm install` and again whenever a source under electron/ is newer than it.
// It is CommonJS so that it can be compiled with V8's code cache (`loadWebBundle`): compiling its
// 3.4 MB was most of what is left of a start, and Node 20 has no code cache for ES modules.
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
/** Files the bundle reads beside itself at run time (they are run as scripts of their own). */
const BESIDE = ['electron/services/media/espeak-wasm.mjs'];

export function webBundlePath(root) {
  return join(root, 'out', 'web', 'cli.cjs');
}

/** V8's compiled code of the bundle, written after a start and checked by V8 against the source. */
function codeCachePath(root) {
  return `${webBundlePath(root)}.v8cache`;
}

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBundleIsStale(root) {
  const bundle = webBundlePath(root);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return SOURCES.some((source) => existsSync(join(root, source)) && newestMtime(join(root, source)) > built);
}

export async function buildWebBundle(root) {
  const { build } = await import('esbuild');
  const outfile = webBundlePath(root);
  mkdirSync(join(root, 'out', 'web'), { recursive: true });
  rmSync(codeCachePath(root), { force: true });
  await build({
    entryPoints: [join(root, 'electron', 'web', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // import() of what loads only when used (the S3 SDK, the npm ffmpeg packages) becomes require():
    // a script compiled by node:vm has no module loader of its own to import with.
    supported: { 'dynamic-import': false },
    // The bundle lives in out/web, as the ES module build did: the sources' import.meta reads the same.
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
  for (const file of BESIDE) copyFileSync(join(root, file), join(root, 'out', 'web', file.split('/').at(-1)));
  // The first start is quick as well: the code cache is made now, in a process of its own (loading
  // the bundle runs its modules' top level, which must not touch the process that builds).
  const made = `import(${JSON.stringify(import.meta.url)}).then((m) => m.loadWebBundle(${JSON.stringify(root)}).saveCodeCache())`;
  spawnSync(process.execPath, ['--input-type=module', '-e', made], { stdio: 'ignore', timeout: 60_000 });
  return outfile;
}

/**
 * Runs the bundle as Node would require it, compiled from the code cache when one matches its source
 * (V8 refuses one that does not). Returns its exports, whether the cache was 'used', 'rejected' or
 * absent ('none'), and `saveCodeCache`, to be called once the host
 * has started and served: the cache then holds every function compiled so far, not only the top level.
 */
export function loadWebBundle(root) {
  const file = webBundlePath(root);
  const cacheFile = codeCachePath(root);
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  let saved = cachedData !== undefined && !script.cachedDataRejected;
  const saveCodeCache = () => {
    if (saved) return;
    saved = true;
    try {
      writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
      renameSync(`${cacheFile}.tmp`, cacheFile);
    } catch {
      // A read-only install folder: every start compiles the bundle, as it would without a cache.
    }
  };
  const codeCache = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return { exports: module.exports, codeCache, saveCodeCache };
}
