// The electron package is an optional dependency: npm before 11 ignores `allowScripts`, runs Electron's
// download, and when GitHub cannot be reached leaves the whole package out instead of failing the
// install. Its type declarations (needed by the type check and electron-vite) come back without the
// binary from the npm registry. CommonJS so electron-builder's config can read the version too.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose (see above) */
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** The Electron version package-lock.json pins (the one to install, build against and package). */
function lockedElectronVersion(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.['node_modules/electron']?.version;
  if (typeof version !== 'string') throw new Error('package-lock.json pins no electron version');
  return version;
}

/** Puts the electron package (declarations, launcher, no binary) back into node_modules; true when it is there. */
function restoreElectronPackage(root) {
  const target = join(root, 'node_modules', 'electron');
  if (existsSync(join(target, 'package.json'))) return true;
  const scratch = mkdtempSync(join(tmpdir(), 'studio-electron-'));
  try {
    // npm_execpath is the npm that runs this install, with its registry and proxy settings.
    const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
    const pack = spawnSync(
      npm[0],
      [...npm[1], 'pack', `electron@${lockedElectronVersion(root)}`, '--pack-destination', scratch, '--silent'],
      { encoding: 'utf8', shell: process.platform === 'win32' && !process.env.npm_execpath },
    );
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
    if (pack.status !== 0 || !tarball) return false;
    mkdirSync(target, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', join(scratch, tarball), '-C', target, '--strip-components=1']);
    return untar.status === 0 && existsSync(join(target, 'electron.d.ts'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

module.exports = { lockedElectronVersion, restoreElectronPackage };
