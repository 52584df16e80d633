import { computed, ref } from 'vue';
import { queueAddressProblem, queueUrl, type RowsWhere } from './queue-address';

/**
 * A setup's "make the rows here or on a queue", as the page keeps it: the choice, the address (kept for
 * the next run) and the password (forgotten once the start request carried it).
 */
export function useQueueChoice() {
  const where = ref<RowsWhere>('here');
  const address = ref('');
  const password = ref('');
  /** Here, or on a queue whose address reads right: the start may go. */
  const ready = computed(() => where.value === 'here' || queueAddressProblem(address.value) === null);
  /** The queue the start request carries, its password in it; undefined: the rows are made here. */
  const startUrl = (): string | undefined =>
    where.value === 'queue' ? queueUrl(address.value, password.value) : undefined;
  /** The password stays with the host's connection only; the page lets go of it once the run started. */
  const forgetPassword = (): void => {
    password.value = '';
  };
  return { where, address, password, ready, startUrl, forgetPassword };
}
