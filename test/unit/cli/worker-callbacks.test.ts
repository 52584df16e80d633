import { describe, expect, it } from 'vitest';
import { workerCallbacks } from '../../../electron/cli/worker-callbacks';
import { UsageError, type CliIo } from '../../../electron/cli/command';

const env = { STUDIO_CLIENT_ID: 'sandbox-client-id', STUDIO_CLIENT_SECRET: 'S'.repeat(16) };
const io = (vars: Record<string, string | undefined> = env, lines: string[] = []): CliIo => ({
  out: () => undefined,
  err: (text) => lines.push(text),
  env: vars,
  cwd: '/',
});
const args = (flags: Record<string, string>) => ({
  positional: [],
  flags: { '--base-url': 'http://127.0.0.1:4780', ...flags },
});

describe('studio worker --callback-url', () => {
  it('is off without its options', async () => {
    expect(await workerCallbacks({ positional: [], flags: {} }, io())).toBeNull();
  });

  it.each([
    [{ '--callback-url': 'https://hooks.example/in' }, 'together'],
    [{ '--callback-listen': '0.0.0.0:8443' }, 'together'],
    [{ '--callback-url': 'http://hooks.example/in', '--callback-listen': '0.0.0.0:8443' }, 'https'],
    [{ '--callback-url': 'https://u:p@hooks.example/in', '--callback-listen': '0.0.0.0:8443' }, 'user or password'],
    [{ '--callback-url': 'https://hooks.example/in?k=1', '--callback-listen': '0.0.0.0:8443' }, '?query'],
    [{ '--callback-url': 'https://hooks.example/in', '--callback-listen': '8443' }, 'HOST:PORT'],
    [{ '--callback-url': 'https://hooks.example/in', '--callback-listen': 'h:99999' }, '65535'],
    [{ '--callback-grace': '30' }, 'needs --callback-url'],
  ])('refuses %j', async (flags, words) => {
    await expect(workerCallbacks(args(flags), io())).rejects.toThrow(words);
  });

  it('needs the client id and secret that open callbacks, and --base-url', async () => {
    const flags = { '--callback-url': 'https://hooks.example/in', '--callback-listen': '127.0.0.1:0' };
    await expect(workerCallbacks(args(flags), io({ STUDIO_API_KEY: 'k' }))).rejects.toThrow('STUDIO_CLIENT_SECRET');
    await expect(workerCallbacks({ positional: [], flags }, io())).rejects.toThrow(UsageError);
  });

  it('listens on its own address and gives each job its own address under the URL', async () => {
    const lines: string[] = [];
    const flags = { '--callback-url': 'https://hooks.example/in/', '--callback-listen': '127.0.0.1:0' };
    const made = await workerCallbacks(args(flags), io(env, lines));
    try {
      const body = made?.callbacks.attach({ id: 'j1', kind: 'tts', connectionId: 'cli-base-url' }, { input_text: 'x' });
      expect(body?.webhookUrl).toMatch(/^https:\/\/hooks\.example\/in\/[A-Za-z0-9_-]{43}$/);
      expect(made?.shown).toMatch(/^callbacks to https:\/\/hooks\.example\/in\/… are received on 127\.0\.0\.1:\d+$/);
    } finally {
      await made?.close();
    }
  });
});
