import { useDialog } from 'naive-ui';
import { computed, ref, shallowRef } from 'vue';
import type { JobView, PaidConfirmation, SubmitResult } from '@common/bridge';
import { notePaidAction, usePaidConfirm, type PaidQuestion } from '@/composables/paid-confirm';
import { useJobsStore } from '@/stores/jobs';

/**
 * Sends a tool's job (the host checks it first), asks before a duplicate paid job, and follows it in the
 * jobs store. Call during setup.
 */
export function useToolSend() {
  const jobs = useJobsStore();
  const dialog = useDialog();
  const { confirmPaid } = usePaidConfirm();
  const sending = ref(false);
  const problem = ref<string | null>(null);
  const sent = shallowRef<JobView | null>(null);
  const job = computed<JobView | null>(() => (sent.value ? (jobs.byId.get(sent.value.id) ?? sent.value) : null));

  const ask = (title: string, content: string, positiveText: string): Promise<boolean> =>
    new Promise((resolve) => {
      dialog.warning({
        title,
        content,
        positiveText,
        negativeText: 'Cancel',
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
      });
    });

  /** Sends after the price question, then asks again before a duplicate. */
  async function send(
    attempt: (confirmDuplicate: boolean, confirmation: PaidConfirmation) => Promise<SubmitResult>,
    question: PaidQuestion,
  ): Promise<void> {
    sending.value = true;
    problem.value = null;
    try {
      const confirmation = await confirmPaid(question);
      if (!confirmation) return;
      let result = await attempt(false, confirmation);
      if (result.status === 'duplicate') {
        if (!(await ask('Send again?', result.message, 'Send anyway'))) return;
        result = await attempt(true, confirmation);
      }
      notePaidAction();
      // Followed from now: its news keeps it current in the store.
      if (result.status === 'submitted') sent.value = jobs.follow(result.job);
    } catch (error) {
      problem.value = error instanceof Error ? error.message : String(error);
    } finally {
      sending.value = false;
    }
  }

  return { sending, problem, job, send, ask };
}
