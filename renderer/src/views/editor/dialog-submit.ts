import { ref } from 'vue';

/** A dialog's one action in flight: `busy` while it runs, its failure in words after (nothing is lost). */
export function useDialogSubmit() {
  const busy = ref(false);
  const failure = ref<string | null>(null);
  async function run(action: () => Promise<void>): Promise<void> {
    busy.value = true;
    failure.value = null;
    try {
      await action();
    } catch (error) {
      failure.value = (error as Error).message;
    } finally {
      busy.value = false;
    }
  }
  return { busy, failure, run };
}
