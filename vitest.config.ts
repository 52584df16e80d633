import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { provideMediaTools } from './test/media-tools-env';

const root = import.meta.dirname;
// Every test worker inherits this process's environment: ffmpeg/ffprobe from npm where the system has none.
provideMediaTools(root);
// The archive's default folders (under Videos and Music) go to a scratch home, never the tester's own.
// One fixed scratch folder (not one per run), so runs do not pile up folders in /tmp.
process.env.STUDIO_ARCHIVE_HOME ??= join(tmpdir(), 'avatar-studio-test-archive-home');
const alias = {
  '@common': resolve(root, 'electron/common'),
  '@': resolve(root, 'renderer/src'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          globals: true,
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          // electron-store imports electron itself; inlining it lets vi.mock('electron') reach it.
          server: { deps: { inline: ['electron-store'] } },
          testTimeout: 30_000,
          globalSetup: ['test/sample-media-setup.ts'],
        },
      },
      {
        plugins: [vue()],
        resolve: { alias },
        test: {
          name: 'component',
          globals: true,
          environment: 'happy-dom',
          include: ['test/component/**/*.test.ts'],
          setupFiles: ['test/component/setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          globals: true,
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          globalSetup: ['test/sample-media-setup.ts', 'test/e2e/global-setup.ts'],
          setupFiles: ['test/e2e/file-host.ts'],
        },
      },
    ],
  },
});
