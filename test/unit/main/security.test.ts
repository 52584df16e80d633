import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ shell: { openExternal: vi.fn() } }));

import { studioCsp } from '../../../electron/services/system/csp';
import { appLocation, devLocation, isAppUrl } from '../../../electron/main/app-location';
import { PermissionPolicy, applySessionSecurity, guardContents } from '../../../electron/main/security';
import { secureWebPreferences } from '../../../electron/main/window';

const app = appLocation('/opt/studio/out/renderer');

type Listener = (event: { preventDefault(): void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  return {
    contents: {
      setWindowOpenHandler: (h: typeof openHandler) => (openHandler = h),
      on: (name: string, l: Listener) => listeners.set(name, l),
    },
    navigate(name: string, url: string) {
      const event = {
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      listeners.get(name)?.(event, url);
      return event.prevented;
    },
    open: (url: string) => openHandler?.({ url }),
  };
}

describe('app location', () => {
  it('accepts only the studio page itself', () => {
    expect(isAppUrl('app://studio/#/voices', app)).toBe(true);
    expect(isAppUrl('app://studio/index.html', app)).toBe(true);
    expect(isAppUrl('app://other/index.html', app)).toBe(false);
    expect(isAppUrl('app://user:pw@studio/', app)).toBe(false);
    expect(isAppUrl('file:///opt/studio/out/renderer/index.html', app)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isAppUrl('https://example.com/', app)).toBe(false);
    expect(isAppUrl(undefined, app)).toBe(false);
    const dev = devLocation('http://localhost:5173/');
    expect(isAppUrl('http://localhost:5173/#/tools', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(() => devLocation('http://192.168.1.5:5173')).toThrow(/loopback/);
  });
});

describe('navigation guard', () => {
  it('denies every window.open and hands safe links to the browser', () => {
    const opened: string[] = [];
    const fake = fakeContents();
    guardContents(fake.contents as never, app, (url) => opened.push(url));
    expect(fake.open('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(fake.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(fake.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/docs']);
  });

  it('keeps the window on the studio page', () => {
    const opened: string[] = [];
    const fake = fakeContents();
    guardContents(fake.contents as never, app, (url) => opened.push(url));
    expect(fake.navigate('will-navigate', 'app://studio/#/library')).toBe(false);
    expect(fake.navigate('will-navigate', 'file:///opt/studio/out/renderer/index.html')).toBe(true);
    expect(fake.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fake.navigate('will-redirect', 'file:///home/user/secret.html')).toBe(true);
    expect(fake.navigate('will-attach-webview', 'anything')).toBe(true);
    expect(opened).toEqual(['https://evil.example/']);
  });
});

describe('session security', () => {
  function fakeSession() {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    return {
      handlers,
      session: {
        webRequest: { onHeadersReceived: (h: never) => (handlers.headers = h) },
        setPermissionRequestHandler: (h: never) => (handlers.request = h),
        setPermissionCheckHandler: (h: never) => (handlers.check = h),
      },
    };
  }

  it('adds the development CSP to the dev server page only, and leaves app:// to its protocol', () => {
    const fake = fakeSession();
    applySessionSecurity(fake.session as never, devLocation('http://localhost:5173'), new PermissionPolicy());
    const received = (url: string): Record<string, string[]> => {
      let headers: Record<string, string[]> = {};
      (fake.handlers.headers as (d: unknown, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)(
        { url, responseHeaders: { 'X-Other': ['1'] } },
        (r) => (headers = r.responseHeaders),
      );
      return headers;
    };
    const dev = received('http://localhost:5173/');
    expect(dev['Content-Security-Policy']).toEqual([studioCsp({ devServer: true })]);
    expect(dev['X-Other']).toEqual(['1']);
    expect(received('https://cdn.example/x.png')['Content-Security-Policy']).toBeUndefined();
    const packaged = fakeSession();
    applySessionSecurity(packaged.session as never, app, new PermissionPolicy());
    // A second CSP here would replace the page's own, nonce and all.
    expect(packaged.handlers.headers).toBeUndefined();
  });

  it('denies permissions by default and grants media only while a feature holds it', () => {
    const fake = fakeSession();
    const policy = new PermissionPolicy();
    applySessionSecurity(fake.session as never, app, policy);
    const ask = (permission: string, details: object): boolean => {
      let answer: boolean | undefined;
      (fake.handlers.request as (w: unknown, p: string, cb: (v: boolean) => void, d: object) => void)(
        null,
        permission,
        (v) => (answer = v),
        details,
      );
      return answer!;
    };
    const page = 'app://studio/';
    for (const permission of ['notifications', 'geolocation', 'clipboard-read', 'openExternal', 'midi']) {
      expect(ask(permission, { requestingUrl: page }), permission).toBe(false);
    }
    expect(ask('media', { requestingUrl: page, mediaTypes: ['audio'] })).toBe(false);
    const release = policy.grantMedia('audio');
    expect(ask('media', { requestingUrl: page, mediaTypes: ['audio'] })).toBe(true);
    expect(ask('media', { requestingUrl: page, mediaTypes: ['audio', 'video'] })).toBe(false);
    expect(ask('media', { requestingUrl: 'https://evil.example/', mediaTypes: ['audio'] })).toBe(false);
    release();
    expect(ask('media', { requestingUrl: page, mediaTypes: ['audio'] })).toBe(false);
    const check = fake.handlers.check as (w: unknown, p: string, o: string, d: object) => boolean;
    expect(check(null, 'notifications', page, { requestingUrl: page })).toBe(false);
  });
});

describe('window preferences', () => {
  it('applies the security checklist', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({
      preload: '/p.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
  });
});
