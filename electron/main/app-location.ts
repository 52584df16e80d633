import { pathToFileURL } from 'node:url';

/**
 * Where the studio page lives: the built index.html (file://) or, while developing, the electron-vite
 * dev server. Everything else is foreign: no navigation to it, no IPC from it, no permissions for it.
 */
export type AppLocation = { kind: 'file'; indexUrl: string } | { kind: 'http'; origin: string };

export function fileLocation(indexPath: string): AppLocation {
  return { kind: 'file', indexUrl: pathToFileURL(indexPath).href };
}

export function devLocation(address: string): AppLocation {
  const url = new URL(address);
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') throw new Error(`The dev server must be on loopback, not ${url.hostname}`);
  return { kind: 'http', origin: url.origin };
}

/** True when `address` is the studio page itself (any hash; no other file, host or scheme). */
export function isAppUrl(address: string | undefined | null, location: AppLocation): boolean {
  if (!address) return false;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (location.kind === 'http') return url.origin === location.origin;
  url.hash = '';
  url.search = '';
  return url.href === location.indexUrl;
}
