import { describe, expect, it } from 'vitest';
import { cookieName, decideAccess, newAccessToken, readCookie } from '../../../electron/web/access';
import { parseWebArgs } from '../../../electron/web/cli';

const token = 'tok_0123456789abcdef';
const port = 4321;
const ok = { host: `127.0.0.1:${port}`, origin: undefined, cookie: undefined, queryToken: undefined };

describe('web host access decision', () => {
  // Finding 7 of the security audit: `Cookie: studio_access_<port>=%` answered HTTP 500.
  it('reads a malformed cookie as no token (401), not as an exception', () => {
    expect(decideAccess({ ...ok, cookie: `${cookieName(port)}=%` }, { token: newAccessToken(), port })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(readCookie(`${cookieName(port)}=%E0%A4%A`, cookieName(port))).toBeUndefined();
  });

  it('lets in the token from the address, then from the cookie', () => {
    expect(decideAccess({ ...ok, queryToken: token }, { token, port })).toEqual({ ok: true, via: 'query' });
    expect(decideAccess({ ...ok, cookie: `a=b; ${cookieName(port)}=${token}` }, { token, port })).toEqual({
      ok: true,
      via: 'cookie',
    });
    expect(
      decideAccess(
        { ...ok, host: `localhost:${port}`, origin: `http://localhost:${port}`, queryToken: token },
        { token, port },
      ).ok,
    ).toBe(true);
  });

  it('refuses requests without the token or with a wrong one', () => {
    expect(decideAccess(ok, { token, port })).toMatchObject({ ok: false, status: 401, reason: 'no access token' });
    expect(decideAccess({ ...ok, queryToken: 'nope' }, { token, port })).toMatchObject({
      ok: false,
      status: 401,
      reason: 'wrong access token',
    });
    expect(decideAccess({ ...ok, cookie: `${cookieName(port + 1)}=${token}` }, { token, port })).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('refuses a foreign Host header even with the right token (DNS rebinding)', () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, undefined]) {
      expect(decideAccess({ ...ok, host, queryToken: token }, { token, port })).toMatchObject({
        ok: false,
        status: 403,
        reason: 'foreign Host header',
      });
    }
  });

  it('refuses a foreign Origin header even with the right cookie (another site posting)', () => {
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`]) {
      expect(decideAccess({ ...ok, origin, cookie: `${cookieName(port)}=${token}` }, { token, port })).toMatchObject({
        ok: false,
        status: 403,
        reason: 'foreign Origin header',
      });
    }
  });

  it('makes long random tokens and reads cookies exactly', () => {
    const a = newAccessToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(newAccessToken());
    expect(readCookie('x_studio_access_1=a; studio_access_1=b', 'studio_access_1')).toBe('b');
    expect(readCookie(undefined, 'x')).toBeUndefined();
  });
});

describe('npm run web arguments', () => {
  it('reads --port, --open and --data-dir, and rejects anything else clearly', () => {
    expect(parseWebArgs([])).toEqual({ port: 0, open: false, dataDir: undefined });
    expect(parseWebArgs(['--port', '8080', '--open', '--data-dir=/tmp/x'])).toEqual({
      port: 8080,
      open: true,
      dataDir: '/tmp/x',
    });
    expect(() => parseWebArgs(['--port', 'abc'])).toThrow(/--port must be a number/);
    expect(() => parseWebArgs(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseWebArgs(['--host', '0.0.0.0'])).toThrow(/Unknown option "--host"/);
  });
});
