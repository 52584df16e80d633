import { useDialog, useMessage } from 'naive-ui';
import { computed, ref } from 'vue';
import { JOB_KIND_LABELS, type JobSubmission, type JobView, type UnconfirmedSubmission } from '@common/bridge';
import { notePaidAction, usePaidConfirm } from '@/composables/paid-confirm';
import { useJobsStore } from '@/stores/jobs';

/**
 * Sends one checked job from a panel and follows it: refusals before sending, a question before a
 * duplicate paid job, the job as the engine reports it. Call during setup.
 */
export function useSendJob() {
  const jobs = useJobsStore();
  const message = useMessage();
  const dialog = useDialog();
  const { confirmPaid } = usePaidConfirm();
  const refused = ref<string[]>([]);
  const sending = ref(false);
  const jobId = ref<string | null>(null);
  const job = computed<JobView | null>(() => (jobId.value ? (jobs.byId.get(jobId.value) ?? null) : null));

  const confirmDuplicate = (text: string): Promise<boolean> =>
    new Promise((resolve) => {
      dialog.warning({
        title: 'Send again?',
        content: text,
        positiveText: 'Send anyway',
        negativeText: 'Cancel',
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
      });
    });

  async function send(
    checked: { ok: true; submission: UnconfirmedSubmission } | { ok: false; reasons: string[] },
  ): Promise<void> {
    refused.value = checked.ok ? [] : checked.reasons;
    if (!checked.ok) return;
    sending.value = true;
    try {
      const { kind, body } = checked.submission;
      const confirmation = await confirmPaid({
        title: `Make this ${JOB_KIND_LABELS[kind].toLowerCase()}?`,
        items: [{ action: kind, body: body as Record<string, unknown> }],
      });
      if (!confirmation) return;
      const sent = await jobs.submitWithConfirm(
        { ...checked.submission, confirmation } as JobSubmission,
        confirmDuplicate,
      );
      notePaidAction();
      if (sent) jobId.value = sent.id;
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      sending.value = false;
    }
  }

  return { refused, sending, job, send, message };
}
