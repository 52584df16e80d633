import { onBeforeUnmount, onMounted } from 'vue';
import { useNotification, type NotificationReactive } from 'naive-ui';
import type { Notice } from '@common/bridge';
import { call, onEvent } from '@/bridge';
import { showSystemNotification } from './system-notifications';

/** How many of a merged toast's details it shows (the newest last); the count says how many came. */
const DETAILS_SHOWN = 3;

/**
 * Shows host notices (a settings file set aside, a finished job, ...) as toasts, including early ones.
 * Notices of the same level and title merge into the toast already open ("Speech ready (3)", its newest
 * details under it) rather than stacking one toast per job down the window.
 */
export function useHostNotices(): void {
  const notification = useNotification();
  const open = new Map<string, { toast: NotificationReactive; count: number; details: string[] }>();
  const show = (notice: Notice): void => {
    showSystemNotification(notice);
    const key = `${notice.level}\n${notice.title}`;
    const same = open.get(key);
    if (same) {
      same.count += 1;
      if (notice.detail) same.details = [...same.details, notice.detail].slice(-DETAILS_SHOWN);
      same.toast.title = `${notice.title} (${same.count})`;
      same.toast.content = same.details.join('\n') || undefined;
      return;
    }
    const toast = notification.create({
      type: notice.level,
      title: notice.title,
      content: notice.detail,
      duration: notice.level === 'error' || notice.level === 'warning' ? 0 : 6000,
      keepAliveOnHover: true,
      onAfterLeave: () => open.delete(key),
    });
    open.set(key, { toast, count: 1, details: notice.detail ? [notice.detail] : [] });
  };
  let stop: (() => void) | undefined;
  onMounted(async () => {
    stop = onEvent('notice', show);
    try {
      for (const notice of await call('system.pendingNotices')) show(notice);
    } catch {
      // The host being unreachable is shown by the shell's status line; nothing to add here.
    }
  });
  onBeforeUnmount(() => stop?.());
}
