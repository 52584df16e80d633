// The renderer's Vite config. `npm run build:renderer` uses it directly; the web host runs the same
// build when out/renderer is missing or stale; electron-vite imports rendererConfig for the desktop build.
// Kept free of relative imports so Vite's native config loader can read it.
import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, type HtmlTagDescriptor, type Plugin, type UserConfig } from 'vite';

/**
 * The editor is the first screen, but its chunk is a dynamic import that the page only reaches once
 * the entry and the vendor chunk have run. Announcing it and its imports in index.html lets the browser
 * fetch and compile them meanwhile instead of afterwards.
 */
function preloadFirstScreen(viewPath: string): Plugin {
  return {
    name: 'studio-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const view = chunks.find((c) => c.facadeModuleId?.endsWith(viewPath));
        if (!view) throw new Error(`preloadFirstScreen: no chunk for ${viewPath}`);
        const files = new Set<string>();
        const visit = (file: string): void => {
          if (files.has(file) || html.includes(`/${file}"`)) return;
          files.add(file);
          for (const imported of chunks.find((c) => c.fileName === file)?.imports ?? []) visit(imported);
        };
        visit(view.fileName);
        return [...files].map((file): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
          injectTo: 'head',
        }));
      },
    },
  };
}

/**
 * The renderer's Vite config, shared by electron-vite (desktop build) and the web host's build, so the
 * two builds of the page cannot drift apart. `base: './'` lets the same files load from app://studio/ in
 * Electron and from the web host's root.
 */
export function rendererConfig(root: string): UserConfig {
  return {
    root: resolve(root, 'renderer'),
    base: './',
    resolve: {
      alias: {
        '@common': resolve(root, 'electron/common'),
        '@': resolve(root, 'renderer/src'),
      },
    },
    plugins: [vue(), preloadFirstScreen('/renderer/src/views/editor/EditorView.vue')],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      // The largest chunk is the real-time video SDK (about 1.55 MB), loaded only when a live face swap
      // session opens; every other chunk is far smaller, so the warning would only repeat that on install.
      chunkSizeWarningLimit: 1600,
      // Fonts stay files: the CSP's font-src allows only 'self', so a small font inlined as a data: URL would be refused.
      assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  };
}

// STUDIO_RENDERER_OUT builds elsewhere (the web host builds into a fresh folder and swaps it in).
const config = rendererConfig(resolve(import.meta.dirname, '../..'));
const outDir = process.env.STUDIO_RENDERER_OUT;
export default defineConfig(outDir ? { ...config, build: { ...config.build, outDir } } : config);
