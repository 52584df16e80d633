// Setup for component tests (happy-dom). Konva needs a 2D canvas context, which happy-dom lacks;
// vitest-canvas-mock provides one without native code.
import 'vitest-canvas-mock';
import { afterAll, afterEach } from 'vitest';
import { config, disableAutoUnmount, enableAutoUnmount } from '@vue/test-utils';

// Naive UI's teleported overlays (tooltips, popovers, dialogs) render in place so tests can find them.
config.global.stubs = { ...config.global.stubs, teleport: true };

// Component files share their worker's modules (vitest.config.ts), so what one file leaves behind must
// not reach the next. What a test mounted is unmounted after it, with its listeners. This setup runs
// again for every file, and each run's hook belongs to that file.
disableAutoUnmount();
enableAutoUnmount(afterEach);
afterEach(() => {
  document.body.innerHTML = '';
});

// Timers a file left running are cleared when it ends, as the end of its own process did before: a
// message's 3 s hide timer (Naive UI does not clear it on unmount) would otherwise fire in whatever runs
// next, after this file's window is gone.
const pending = new Set<ReturnType<typeof setTimeout>>();
const TRACKED = Symbol.for('studio.component-timers');
type TrackedGlobal = typeof globalThis & { [TRACKED]?: Set<ReturnType<typeof setTimeout>> };
const scope = globalThis as TrackedGlobal;
if (!scope[TRACKED]) {
  const start = globalThis.setTimeout;
  const stop = globalThis.clearTimeout;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = start(() => {
      scope[TRACKED]?.delete(handle);
      callback(...args);
    }, ms);
    scope[TRACKED]?.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle?: ReturnType<typeof setTimeout>) => {
    if (handle !== undefined) scope[TRACKED]?.delete(handle);
    stop(handle);
  }) as typeof clearTimeout;
}
scope[TRACKED] = pending;
afterAll(() => {
  for (const handle of pending) clearTimeout(handle);
  pending.clear();
});
