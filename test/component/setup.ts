// Setup for component tests (happy-dom). Konva needs a 2D canvas context, which happy-dom lacks;
// vitest-canvas-mock provides one without native code.
import 'vitest-canvas-mock';
import { config } from '@vue/test-utils';

// Naive UI's teleported overlays (tooltips, popovers, dialogs) render in place so tests can find them.
config.global.stubs = { ...config.global.stubs, teleport: true };
