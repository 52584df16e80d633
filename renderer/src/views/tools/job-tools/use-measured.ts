import { ref, shallowRef, watch, type Ref, type WatchSource } from 'vue';

/**
 * The host's answer about the current inputs (a measurement, a quote): asked again a moment after they
 * change, and only the answer to the latest inputs is kept.
 */
export function useMeasured<T>(
  sources: WatchSource[],
  ready: () => boolean,
  ask: () => Promise<T>,
): { value: Ref<T | null>; busy: Ref<boolean>; problem: Ref<string | null> } {
  const value = shallowRef<T | null>(null);
  const busy = ref(false);
  const problem = ref<string | null>(null);
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function run(mine: number): Promise<void> {
    busy.value = true;
    try {
      const answer = await ask();
      if (mine === asked) value.value = answer;
    } catch (error) {
      if (mine === asked) problem.value = error instanceof Error ? error.message : String(error);
    } finally {
      if (mine === asked) busy.value = false;
    }
  }

  watch(sources, () => {
    clearTimeout(timer);
    const mine = ++asked;
    value.value = null;
    problem.value = null;
    busy.value = false;
    if (ready()) timer = setTimeout(() => void run(mine), 300);
  });
  return { value, busy, problem };
}
