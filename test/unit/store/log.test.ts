import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLogger } from '../../../electron/services/log/file-logger';
import { isSecretFieldName, Redactor } from '../../../electron/services/log/redact';
import { registerSecret } from '../../../electron/services/log/secret-aware-vault';
import { encodeCredentials } from '../../../electron/services/connections/credentials';

describe('Redactor', () => {
  it('replaces registered secrets wherever they appear', () => {
    const r = new Redactor();
    r.register('sk-abcdef123456');
    r.register('abc'); // too short to search for safely
    expect(r.text('key sk-abcdef123456 was refused; abc stays')).toBe('key [redacted] was refused; abc stays');
  });

  // Finding 7 of the security audit: a stored secret's kind was registered as a secret too, so the
  // words "api-key" and "client-credentials" were blanked in ordinary messages.
  it('registers the secrets inside stored credentials, not their kind or origin', () => {
    const r = new Redactor();
    registerSecret(r, encodeCredentials({ kind: 'api-key', apiKey: 'k-live-1234567' }, 'https://api.example.com'));
    registerSecret(
      r,
      encodeCredentials(
        { kind: 'client-credentials', clientId: 'studio-client-9', clientSecret: 'cs-live-7654321' },
        'https://api.example.com',
      ),
    );
    expect(r.text('api-key k-live-1234567 or client-credentials cs-live-7654321 for https://api.example.com')).toBe(
      'api-key [redacted] or client-credentials [redacted] for https://api.example.com',
    );
  });

  it('redacts bearer credentials and secret query parameters', () => {
    const r = new Redactor();
    expect(r.text('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer [redacted]');
    expect(r.text('GET /v1/a?api_key=zzz&x=1&token=qq')).toBe('GET /v1/a?api_key=[redacted]&x=1&token=[redacted]');
  });

  it('redacts fields named like secrets, deeply', () => {
    const r = new Redactor();
    const out = r.value({
      apiKey: 'a',
      nested: { client_secret: 's', Authorization: 'Bearer q', refreshToken: 't' },
      keyframe: 3,
      list: [{ token: 'x' }],
    });
    expect(out).toEqual({
      apiKey: '[redacted]',
      nested: { client_secret: '[redacted]', Authorization: '[redacted]', refreshToken: '[redacted]' },
      keyframe: 3,
      list: [{ token: '[redacted]' }],
    });
    for (const name of [
      'key',
      'apiKey',
      'api_key',
      'secret',
      'clientSecret',
      'accessToken',
      'authorization',
      'password',
    ])
      expect(isSecretFieldName(name), name).toBe(true);
    for (const name of ['keyframe', 'monkey', 'tokensUsed', 'channel', 'message'])
      expect(isSecretFieldName(name), name).toBe(false);
  });
});

describe('FileLogger', () => {
  it('writes JSON lines with no secret in them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-log-'));
    const redactor = new Redactor();
    redactor.register('super-secret-value');
    const log = new FileLogger({
      file: join(dir, 'studio.log'),
      redactor,
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    log.info('connected with super-secret-value', {
      apiKey: 'super-secret-value',
      url: 'https://x/?token=abc123',
      count: 2,
    });
    log.debug('dropped below min level');
    const text = readFileSync(join(dir, 'studio.log'), 'utf8');
    expect(text).not.toContain('super-secret-value');
    expect(text).not.toContain('abc123');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        time: '2026-01-01T00:00:00.000Z',
        level: 'info',
        message: 'connected with [redacted]',
        apiKey: '[redacted]',
        url: 'https://x/?token=[redacted]',
        count: 2,
      },
    ]);
  });

  it('rotates past the size limit and keeps only the configured number of old files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-log-'));
    const log = new FileLogger({ file: join(dir, 'studio.log'), redactor: new Redactor(), maxBytes: 300, keep: 2 });
    for (let i = 0; i < 40; i += 1) log.warn(`line ${i} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['studio.log', 'studio.log.1', 'studio.log.2']);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).length).toBeLessThanOrEqual(300);
    expect(readFileSync(join(dir, 'studio.log'), 'utf8')).toContain('line 39');
  });
});
