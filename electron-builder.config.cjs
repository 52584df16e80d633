// Packaging with electron-builder (`npm run dist`): Linux AppImage and deb, macOS dmg, Windows NSIS.
// Tested by test/unit/launch/packaging.test.ts (the config, the fuses and the files that would be packed).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const { lockedElectronVersion } = require('./electron/launch/electron-package.cjs');

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.avatarstudio.desktop',
  productName: 'Avatar Studio',
  copyright: 'Copyright © Avatar Studio',
  directories: { output: 'dist', buildResources: 'resources/icons' },
  icon: 'resources/icons/icon.png',
  // Electron is optional and may be installed without its binary: the lock file says which one to package.
  electronVersion: lockedElectronVersion(__dirname),
  // koffi (28 MB, every platform's binary) serves `studio worker` alone, and the bundles of the web host and
  // the command line (15 MB each with their code caches) serve `npm start` in a browser and `studio`: they
  // run on Node, not in the app.
  files: [
    'out/**/*',
    'package.json',
    '!**/*.map',
    '!out/renderer/**/*.part',
    '!out/{web,cli}{,/**}',
    '!node_modules/koffi{,/**}',
  ],
  asar: true,
  // Native binaries must be real files to be executed (ffmpeg-static and the npm ffmpeg/ffprobe builds)
  // or loaded (libsql's N-API addon, in its per-platform @libsql/<platform> package: dlopen cannot read
  // inside an asar archive).
  asarUnpack: [
    'node_modules/ffmpeg-static/**',
    'node_modules/@ffmpeg-installer/**',
    'node_modules/@ffprobe-installer/**',
    'node_modules/libsql/**',
    'node_modules/@libsql/**',
  ],
  // The fonts text elements are drawn with sit beside app.asar (resources/fonts of the installation),
  // where bundledFontsDir() finds them by walking up from the built main process; the starter
  // templates likewise (starterTemplatesDir()).
  extraResources: [
    { from: 'resources/fonts', to: 'fonts' },
    { from: 'resources/templates', to: 'templates' },
  ],
  // Electron's fuses, flipped in the packaged binary: it cannot be run as plain Node, takes no Node
  // options or inspector flags, encrypts cookies, and loads only the checked app.asar.
  electronFuses: {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableCookieEncryption: true,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
  },
  linux: { target: ['AppImage', 'deb'], category: 'AudioVideo', maintainer: 'Avatar Studio' },
  deb: { depends: ['libnss3', 'libgtk-3-0'] },
  mac: { target: ['dmg'], category: 'public.app-category.video', hardenedRuntime: true },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true },
};
