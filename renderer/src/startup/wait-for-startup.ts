import { createApp, h, reactive } from 'vue';
import type { StartupState } from '@common/bridge';
import { call } from '@/bridge';
import StartupScreen from './StartupScreen.vue';

/** How often the page asks how far the start is (the host answers at once, or after its current step). */
const ASK_EVERY_MS = 300;

export interface StartupDeps {
  ask: () => Promise<StartupState>;
  wait: (ms: number) => Promise<void>;
}

const bridgeDeps: StartupDeps = {
  ask: () => call('system.startup'),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Resolves once the host's records are open, so the studio is mounted on records that are there.
 * A host already open answers at once and nothing is shown; one still preparing them gets the startup
 * screen in `target` until it is done. A host that cannot be asked (gone, refusing this page) is left
 * to the studio's own report of it. A start that failed stays on the screen, which says why.
 */
export async function waitForStartup(target: Element, deps: StartupDeps = bridgeDeps): Promise<void> {
  const first = await deps.ask().catch(() => null);
  if (first === null || first.ready) return;
  const shown = reactive({ state: first, answeredAt: performance.now() });
  // Rendered from the reactive answer, so each new one shows (root props are read once).
  const screen = createApp({ render: () => h(StartupScreen, { state: shown.state, answeredAt: shown.answeredAt }) });
  screen.mount(target);
  for (let state = first; !state.ready;) {
    if (state.failure !== null) return new Promise<void>(() => undefined);
    await deps.wait(ASK_EVERY_MS);
    const next = await deps.ask().catch(() => null);
    if (next === null) break;
    state = next;
    Object.assign(shown, { state, answeredAt: performance.now() });
  }
  screen.unmount();
}
