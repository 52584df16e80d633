import { onBeforeUnmount, onMounted } from 'vue';
import { useNotification } from 'naive-ui';
import type { Notice } from '@common/bridge';
import { call, onEvent } from '@/bridge';
import { showSystemNotification } from './system-notifications';

/** Shows host notices (a settings file set aside, a finished job, ...) as toasts, including early ones. */
export function useHostNotices(): void {
  const notification = useNotification();
  const show = (notice: Notice): void => {
    showSystemNotification(notice);
    notification.create({
      type: notice.level,
      title: notice.title,
      content: notice.detail,
      duration: notice.level === 'error' || notice.level === 'warning' ? 0 : 6000,
      keepAliveOnHover: true,
    });
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
