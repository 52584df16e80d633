import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './electron/web/vite.renderer.config';

const root = import.meta.dirname;
const alias = {
  '@common': resolve(root, 'electron/common'),
  '@': resolve(root, 'renderer/src'),
};

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(root, 'electron/main/index.ts') } },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require nothing but 'electron': bundle every dependency into it.
      externalizeDeps: false,
      // A sandboxed preload cannot load an ES module, so this one is CommonJS.
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  // The same renderer config the web host builds with (electron/web/vite.renderer.config.ts).
  renderer: rendererConfig(root),
});
