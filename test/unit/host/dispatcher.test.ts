import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { callChannels } from '@common/bridge';
import { createDispatcher, toFailure } from '../../../electron/services/host/dispatcher';
import { createDomains } from '../../../electron/services/host/domains';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { Redactor } from '../../../electron/services/log/redact';

const SHIPPED_FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

function setup() {
  const base = createMemoryHostBase();
  const redactor = new Redactor();
  redactor.register('sk-live-0123456789');
  const domains = createDomains(base);
  const dispatch = createDispatcher({ handlers: domains.handlers, log: base.log, redact: (t) => redactor.text(t) });
  return { base, domains, dispatch };
}

describe('createDomains', () => {
  it('has a handler for every bridge call', () => {
    const { domains } = setup();
    for (const channel of callChannels) expect(typeof domains.handlers[channel], channel).toBe('function');
  });

  it('disposes every domain without throwing', async () => {
    await expect(setup().domains.disposeAll()).resolves.toBeUndefined();
  });
});

describe('dispatch', () => {
  it('runs a known call and wraps its value', async () => {
    const { dispatch } = setup();
    const outcome = await dispatch('settings.get', []);
    expect(outcome).toEqual({
      ok: true,
      value: {
        ffmpegPath: null,
        ffprobePath: null,
        notifications: true,
        favouriteVoices: [],
        spending: { skipQuestionUnder: null, dailyLimits: {} },
      },
    });
  });

  it('refuses unknown channels, including prototype names', async () => {
    const { dispatch } = setup();
    for (const channel of ['nope.call', 'toString', '__proto__', 42, null]) {
      const outcome = await dispatch(channel, []);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('unknown-channel');
    }
  });

  it('refuses arguments that do not match the channel schema, naming the argument', async () => {
    const { dispatch } = setup();
    const wrongType = await dispatch('settings.update', [{ notifications: 'yes' }]);
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    if (!wrongType.ok) expect(wrongType.error.message).toMatch(/argument 1 \(notifications\).*settings\.update/);
    const extraKey = await dispatch('settings.update', [{ apiKey: 'x' }]);
    expect(extraKey.ok).toBe(false);
    const notArray = await dispatch('settings.get', 'hello');
    expect(notArray).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    const relative = await dispatch('settings.update', [{ ffmpegPath: 'bin/ffmpeg' }]);
    if (!relative.ok) expect(relative.error.message).toMatch(/absolute path/);
    else expect.fail('a relative path was accepted');
  });

  it('turns handler errors into message and code without stacks or secrets', async () => {
    const { dispatch } = setup();
    const outcome = await dispatch('system.openExternal', ['file:///etc/passwd']);
    expect(outcome).toEqual({ ok: false, error: { message: expect.stringMatching(/only http and https/) } });
    const failure = toFailure(Object.assign(new Error('key sk-live-0123456789 refused'), { code: 1101 }), (t) =>
      t.replace('sk-live-0123456789', '[redacted]'),
    );
    expect(failure).toEqual({ message: 'key [redacted] refused', code: 1101 });
    expect(JSON.stringify(failure)).not.toContain('at ');
  });

  it('emits settings.changed after an update and persists it', async () => {
    const { dispatch, base } = setup();
    const outcome = await dispatch('settings.update', [{ ffmpegPath: SHIPPED_FFMPEG }]);
    expect(outcome).toMatchObject({ ok: true, value: { ffmpegPath: SHIPPED_FFMPEG } });
    expect(base.emitted.at(-1)).toMatchObject({ event: 'settings.changed', payload: { ffmpegPath: SHIPPED_FFMPEG } });
    expect(await dispatch('settings.get', [])).toMatchObject({ value: { ffmpegPath: SHIPPED_FFMPEG } });
  });

  // Finding 3 of the security audit: settings.update took any program as ffprobe and system.info ran it.
  it('keeps an ffmpeg / ffprobe path only when the file answers -version as that program', async () => {
    const { dispatch, base } = setup();
    const refused = async (patch: object, message: RegExp) => {
      const outcome = await dispatch('settings.update', [patch]);
      expect(outcome, JSON.stringify(patch)).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(message) },
      });
    };
    await refused(
      { ffprobePath: '/bin/true' },
      /^The ffprobe path was not saved: \/bin\/true does not answer -version as ffprobe does\.$/,
    );
    await refused(
      { ffmpegPath: '/no/such/ffmpeg' },
      /^The ffmpeg path was not saved: \/no\/such\/ffmpeg does not exist\.$/,
    );
    await refused({ ffmpegPath: '/etc/passwd' }, /is not an executable file/);
    await refused({ ffprobePath: SHIPPED_FFMPEG }, /does not answer -version as ffprobe does/);
    expect(base.emitted.some((e) => e.event === 'settings.changed')).toBe(false);
    expect(await dispatch('settings.get', [])).toMatchObject({ value: { ffmpegPath: null, ffprobePath: null } });
  });

  it('hands out pending notices once', async () => {
    const { dispatch, base } = setup();
    base.notices.raise({ level: 'warning', title: 'Moved aside' });
    expect(await dispatch('system.pendingNotices', [])).toEqual({
      ok: true,
      value: [{ level: 'warning', title: 'Moved aside' }],
    });
    expect(await dispatch('system.pendingNotices', [])).toEqual({ ok: true, value: [] });
  });
});
