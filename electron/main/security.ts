import type { Session, WebContents } from 'electron';
import { isSafeExternalUrl } from '../services/system/external-url';
import { studioCsp } from '../services/system/csp';
import { isAppUrl, type AppLocation } from './app-location';

type MediaKind = 'audio' | 'video';

/**
 * Permissions are refused unless a feature asked for them: a feature that records (say, voice cloning
 * from the microphone) grants its media kind for as long as it records and revokes it after.
 */
export class PermissionPolicy {
  private readonly granted = new Set<MediaKind>();

  grantMedia(kind: MediaKind): () => void {
    this.granted.add(kind);
    return () => this.granted.delete(kind);
  }

  /** Only 'media' requests, from the studio page, for kinds currently granted. Everything else: no. */
  allows(
    permission: string,
    requestingUrl: string | undefined,
    mediaTypes: readonly string[] | undefined,
    app: AppLocation,
  ): boolean {
    if (permission !== 'media' || !isAppUrl(requestingUrl, app)) return false;
    const kinds = mediaTypes ?? [];
    return kinds.length > 0 && kinds.every((kind) => (kind === 'audio' || kind === 'video') && this.granted.has(kind));
  }
}

/**
 * Permissions for the studio page only. The app:// protocol sends the page's CSP itself (with the
 * page's nonce); the dev server does not, so its responses get the development policy here.
 */
export function applySessionSecurity(session: Session, app: AppLocation, policy: PermissionPolicy): void {
  if (app.kind === 'http') {
    session.webRequest.onHeadersReceived((details, callback) => {
      const headers = { ...details.responseHeaders };
      if (isAppUrl(details.url, app)) headers['Content-Security-Policy'] = [studioCsp({ devServer: true })];
      callback({ responseHeaders: headers });
    });
  }
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const media = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(policy.allows(permission, details.requestingUrl, media, app));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const media = details.mediaType ? [details.mediaType] : undefined;
    return policy.allows(permission, details.requestingUrl ?? requestingOrigin, media, app);
  });
}

/**
 * Locks a web contents to the studio page: no new windows, no navigation away, no webviews. An
 * http(s) link the user follows opens in their browser (after the same check system.openExternal uses).
 */
export function guardContents(contents: WebContents, app: AppLocation, openExternal: (url: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
  const onNavigate = (event: { preventDefault(): void }, url: string): void => {
    if (isAppUrl(url, app)) return;
    event.preventDefault();
    if (isSafeExternalUrl(url)) openExternal(url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
