import type { Notice } from '@common/bridge';

/** What the page uses of the browser for system notifications (tests pass a stand-in). */
export interface NotificationEnv {
  /** The browser's Notification, or undefined where there is none. */
  Notification:
    | (Pick<typeof Notification, 'permission' | 'requestPermission'> &
        (new (title: string, options?: NotificationOptions) => unknown))
    | undefined;
  /** The user is looking at another tab or window. */
  elsewhere(): boolean;
}

export function browserNotifications(): NotificationEnv {
  return {
    Notification: typeof Notification === 'undefined' ? undefined : Notification,
    elsewhere: () => document.visibilityState === 'hidden' || !document.hasFocus(),
  };
}

export type NotificationPermissionState = NotificationPermission | 'unsupported';

export function notificationPermission(env: NotificationEnv = browserNotifications()): NotificationPermissionState {
  return env.Notification ? env.Notification.permission : 'unsupported';
}

/** Asks the browser; must run inside a user's click (browsers ignore it otherwise). */
export async function askNotificationPermission(
  env: NotificationEnv = browserNotifications(),
): Promise<NotificationPermissionState> {
  if (!env.Notification) return 'unsupported';
  if (env.Notification.permission !== 'default') return env.Notification.permission;
  return env.Notification.requestPermission();
}

/**
 * A host notice the host marked as worth a system notification (a download run or an archive catch-up
 * ended or failed), shown as one when the user allowed them and is looking elsewhere; inside the page
 * the toast says it already. Answers whether one was shown.
 */
export function showSystemNotification(notice: Notice, env: NotificationEnv = browserNotifications()): boolean {
  if (!notice.system || !env.Notification || env.Notification.permission !== 'granted' || !env.elsewhere())
    return false;
  new env.Notification(notice.title, { body: notice.detail, tag: `studio:${notice.title}` });
  return true;
}
