/**
 * Where the studio page lives: app://studio/ (the built page, served by the app:// protocol from the
 * renderer folder) or, while developing, the electron-vite dev server on loopback. Everything else is
 * foreign: no navigation to it, no IPC from it, no permissions for it.
 */
export type AppLocation = { kind: 'app'; origin: string; rendererDir: string } | { kind: 'http'; origin: string };

export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';

export function appLocation(rendererDir: string): AppLocation {
  return { kind: 'app', origin: `${APP_SCHEME}://${APP_HOST}`, rendererDir };
}

export function devLocation(address: string): AppLocation {
  const url = new URL(address);
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1')
    throw new Error(`The dev server must be on loopback, not ${url.hostname}`);
  return { kind: 'http', origin: url.origin };
}

/** The address the window opens. */
export function pageUrl(location: AppLocation): string {
  return `${location.origin}/`;
}

/** True when `address` is on the studio page's origin (any path or hash; no other host, port or scheme). */
export function isAppUrl(address: string | undefined | null, location: AppLocation): boolean {
  if (!address) return false;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (location.kind === 'http') return url.origin === location.origin;
  // A URL of a scheme Node does not know has the origin "null": compare its parts instead.
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && !url.username && !url.password;
}
