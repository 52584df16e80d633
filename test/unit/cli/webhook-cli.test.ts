import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import type { RunningEmulator } from '../../../electron/emulator';
import { openWebhook, sealWebhook } from '../../../electron/services/webhooks/webhook-crypto';
import { startBuiltInSandbox } from '../../../electron/emulator/built-in';
import { CATALOGUE_ROOT, call, dataOf, until } from '../emulator/harness';
import { decodeAsDocumented } from '../emulator/webhook-receiver';

function io(stdin = '', cwd = process.cwd()) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd, stdin: async () => stdin };
  return { io: value, out, err };
}

describe('studio webhook decode', () => {
  let em: RunningEmulator;
  let hook: Server;
  const bodies: string[] = [];
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-webhook-cli-'));
    // The data folder's built-in sandbox: the CLI reads its generated secret from there.
    em = await startBuiltInSandbox(dir, { jobSeconds: 0.2, catalogueDir: CATALOGUE_ROOT });
    hook = createServer((req, res) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => {
        bodies.push(s);
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  }, 120_000);
  afterAll(async () => {
    await em.close();
    hook.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies and prints a callback the built-in sandbox sent, from a file or standard input', async () => {
    const port = (hook.address() as { port: number }).port;
    const created = dataOf(
      await call(em, 'audioCreate', {
        input_text: 'Called back.',
        voice_id: 'sandbox_ava',
        webhookUrl: `http://127.0.0.1:${port}/cb`,
      }),
    );
    const done = dataOf(
      await until(
        () => call(em, 'audioInfo', { audio_model_id: created._id }),
        (r) => dataOf(r).status >= 3,
      ),
    );
    const raw = await until(
      async () => bodies.find((b) => JSON.parse(b).signature && openWebhook(JSON.parse(b), em).status === 3),
      Boolean,
    );
    writeFileSync(join(dir, 'callback.json'), String(raw));

    const fromFile = io('', dir);
    expect(await runCli(['webhook', 'decode', 'callback.json', '--data-dir', dir], fromFile.io)).toBe(0);
    expect(fromFile.out).toEqual([`Verified. audio ${created._id}: status 3, ${done.url}`]);

    const fromStdin = io(String(raw));
    expect(await runCli(['webhook', 'decode', '-', '--json', '--data-dir', dir], fromStdin.io)).toBe(0);
    expect(JSON.parse(fromStdin.out.join('\n'))).toEqual({ _id: created._id, status: 3, type: 'audio', url: done.url });
  });

  it('refuses a changed callback, and one sealed with other credentials, saying which check failed', async () => {
    const sealed = sealWebhook(
      { _id: 'x1', status: 3, type: 'audio', url: 'http://127.0.0.1/files/a.mp3' },
      em,
      1_710_757_981_609,
      '1529',
    );
    const changed = io(JSON.stringify({ ...sealed, nonce: '1530' }));
    expect(await runCli(['webhook', 'decode', '-', '--data-dir', dir], changed.io)).toBe(1);
    expect(changed.err.join('\n')).toMatch(/signature does not match/);

    const foreign = sealWebhook(
      { _id: 'x2', status: 2, type: 'audio', url: '' },
      { clientId: 'another-client-id', clientSecret: 'another-secret16' },
      1,
      '7',
    );
    const other = io(JSON.stringify(foreign));
    expect(await runCli(['webhook', 'decode', '-', '--data-dir', dir], other.io)).toBe(1);
    expect(other.err.join('\n')).toMatch(/signature does not match/);

    const notJson = io('{');
    expect(await runCli(['webhook', 'decode', '-', '--data-dir', dir], notJson.io)).toBe(1);
    expect(notJson.err.join('\n')).toMatch(/not JSON/);
  });

  it.each([16, 24, 32])('seals with a %i-byte secret the way a receiver written from the docs opens', (length) => {
    const credentials = { clientId: 'client-id-of-the-team', clientSecret: 's'.repeat(length) };
    const event = { _id: 'abc', status: 4 as const, type: 'lipsync', url: '' };
    expect(
      decodeAsDocumented(
        sealWebhook(event, credentials, 1_700_000_000_000, '42'),
        credentials.clientId,
        credentials.clientSecret,
      ),
    ).toEqual(event);
    expect(() => sealWebhook(event, { ...credentials, clientSecret: 's'.repeat(length + 1) }, 1)).toThrow(
      /16, 24 or 32/,
    );
  });
});
