import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { provideMediaTools } from './test/media-tools-env.ts';
import LongestFirstSequencer from './test/sequencer.ts';
import { SUITE_WORKERS } from './test/suite-size.ts';

const root = import.meta.dirname;
// Every test worker inherits this process's environment: ffmpeg/ffprobe from npm where the system has none.
provideMediaTools(root);
// The archive's default folders (under Videos and Music) go to a scratch home, never the tester's own.
// One fixed scratch folder (not one per run), so runs do not pile up folders in /tmp; worker-env.ts
// gives each test worker a sub-folder of it (STUDIO_ARCHIVE_HOME given to `npm test` moves it).
process.env.STUDIO_TEST_ARCHIVE_ROOT ??=
  process.env.STUDIO_ARCHIVE_HOME ?? join(tmpdir(), 'avatar-studio-test-archive-home');
const alias = {
  '@common': resolve(root, 'electron/common'),
  '@': resolve(root, 'renderer/src'),
};

// Every limit below is a hang guard, never a verdict on speed: at least ten times what the slowest test
// or hook of its kind takes on a quiet machine, so a busy machine makes the run longer, never red.
const UNIT_GUARD_MS = 120_000;
const JOURNEY_GUARD_MS = 300_000;

// A file that replaces modules (vi.mock), the clock, globals or the environment gets a module graph of
// its own; every other unit file shares its worker's modules with the files before it, which spares
// re-importing the services once per file. Read off the files themselves, so a new test that mocks
// is isolated without anyone remembering to list it.
// A file that depends on a module's first-load state says so with a line starting `// @isolate:` and why.
const REPLACES_MODULES = /\bvi\.(mock|doMock|useFakeTimers|stubGlobal|stubEnv)\(|^\/\/ @isolate:/m;
const filesReplacingModules = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${dir}/${file}`)
    .filter((file) => REPLACES_MODULES.test(readFileSync(join(root, file), 'utf8')));
const isolatedUnitFiles = filesReplacingModules('test/unit');
const isolatedComponentFiles = filesReplacingModules('test/component');

const unitTest = {
  globals: true,
  environment: 'node',
  include: ['test/unit/**/*.test.ts'],
  // electron-store imports electron itself; inlining it lets vi.mock('electron') reach it.
  server: { deps: { inline: ['electron-store'] } },
  testTimeout: UNIT_GUARD_MS,
  hookTimeout: UNIT_GUARD_MS,
  globalSetup: ['test/sample-media-setup.ts'],
  setupFiles: ['test/worker-env.ts'],
};

const componentTest = {
  globals: true,
  environment: 'happy-dom',
  include: ['test/component/**/*.test.ts'],
  // A test that loads a workspace compiles its whole view on first import: over 5 s on a busy machine.
  testTimeout: UNIT_GUARD_MS,
  hookTimeout: UNIT_GUARD_MS,
  setupFiles: ['test/worker-env.ts', 'test/component/setup.ts'],
};

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    maxWorkers: SUITE_WORKERS,
    // The longest files start first in each group, on a fresh CI machine too (test/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { resolve: { alias }, test: { ...unitTest, name: 'unit', exclude: isolatedUnitFiles, isolate: false } },
      { resolve: { alias }, test: { ...unitTest, name: 'unit-isolated', include: isolatedUnitFiles } },
      // Component files share their worker's page and compiled views the same way (a third of the
      // CPU they took with a fresh module graph and DOM per file); those that replace modules do not.
      {
        plugins: [vue()],
        resolve: { alias },
        test: { ...componentTest, name: 'component', exclude: isolatedComponentFiles, isolate: false },
      },
      {
        plugins: [vue()],
        resolve: { alias },
        test: { ...componentTest, name: 'component-isolated', include: isolatedComponentFiles },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          globals: true,
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: JOURNEY_GUARD_MS,
          hookTimeout: JOURNEY_GUARD_MS,
          // What a test polls for in the page (a setting saved, a list refreshed) takes a round trip to
          // the host: a second on a quiet machine, several on a busy one.
          expect: { poll: { timeout: 60_000, interval: 100 } },
          // Every file has its own web host on a free port and its own data folder, and connects to the
          // run's one Chromium (global-setup.ts), so its files run side by side with each other and with
          // the unit and component files, in the same workers. None replaces modules, so a worker's
          // files share the web host's and Playwright's modules instead of importing them each time.
          isolate: false,
          globalSetup: ['test/sample-media-setup.ts', 'test/e2e/global-setup.ts'],
          setupFiles: ['test/worker-env.ts', 'test/e2e/file-host.ts'],
        },
      },
    ],
  },
});
