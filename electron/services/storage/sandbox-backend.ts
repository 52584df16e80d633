import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import type { StorageBackend, StoredLink, UploadInput, UploadOptions } from './backend';
import { Code } from '../../common/api';
import { lightFetch, type LightAnswer, type LightFetch } from '../net/light-fetch';

/**
 * Times a file is sent when its connection drops before any answer ("fetch failed": a busy sandbox, a
 * connection reset). A PUT of the same name and bytes stores the same object, so sending it again is safe.
 */
const SEND_ATTEMPTS = 3;
const RESEND_AFTER_MS = 250;

interface SandboxAnswer {
  code: number;
  msg: string;
  data?: { url: string; expiresAt: number };
}

/**
 * The built-in sandbox as a storage: it keeps uploaded files beside its results and serves them for
 * the same 7 days, so "drop a local file" works offline with no account.
 */
export class SandboxBackend implements StorageBackend {
  constructor(
    private readonly sandbox: () => Promise<{ baseUrl: string; apiKey: string }>,
    private readonly fetch: LightFetch = lightFetch,
  ) {}

  async upload(input: UploadInput, options: UploadOptions = {}): Promise<StoredLink> {
    const { baseUrl, apiKey } = await this.sandbox();
    const name = storedName(input.key);
    // The sandbox names what it stores by content: the same bytes sent by another process (a worker
    // rendering a row again) are found there, and are not sent a second time.
    const known = input.byContent
      ? await this.stored(baseUrl, apiKey, name, input.key.split('/')[0], options.signal)
      : null;
    if (known) return known;
    const response = await this.sent(
      `${baseUrl}/__sandbox/uploads/${encodeURIComponent(name)}`,
      apiKey,
      input,
      options,
    );
    const answer = await jsonOf(response);
    if (!answer) throw new Error(`the sandbox answered HTTP ${response.status} without a readable result`);
    if (answer.code !== Code.Success || !answer.data) throw new Error(`the sandbox refused the file: ${answer.msg}`);
    return { url: answer.data.url, expiresAt: answer.data.expiresAt };
  }

  /** The file sent, again from its start when the connection drops before an answer (never once cancelled). */
  private async sent(url: string, apiKey: string, input: UploadInput, options: UploadOptions): Promise<LightAnswer> {
    for (let attempt = 1; ; attempt += 1) {
      let sent = 0;
      const counted = createReadStream(input.path).pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, next) {
            sent += chunk.length;
            options.onProgress?.(sent);
            next(null, chunk);
          },
        }),
      );
      try {
        return await this.fetch(url, {
          method: 'PUT',
          headers: { 'x-api-key': apiKey, 'content-type': input.contentType, 'content-length': String(input.size) },
          body: counted,
          signal: options.signal,
          duplex: 'half',
        });
      } catch (error) {
        counted.destroy();
        if (options.signal?.aborted || attempt >= SEND_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER_MS * attempt));
      }
    }
  }

  /** The link of a file the sandbox holds already by these bytes' hash (the key's first part), or null. */
  private async stored(
    baseUrl: string,
    apiKey: string,
    name: string,
    sha: string,
    signal?: AbortSignal,
  ): Promise<StoredLink | null> {
    if (!/^[0-9a-f]{16}$/.test(sha)) return null;
    const response = await this.fetch(`${baseUrl}/__sandbox/uploads/${encodeURIComponent(name)}?sha256=${sha}`, {
      method: 'GET',
      headers: { 'x-api-key': apiKey },
      signal,
    }).catch(() => null);
    // Read whatever the status: an answer's body left unread holds its connection's buffer.
    const answer = response ? await jsonOf(response) : null;
    return response?.ok && answer?.code === Code.Success && answer.data ? answer.data : null;
  }

  /** The sandbox keeps a file only as long as its link lives; after that it must be sent again. */
  async relink(): Promise<StoredLink | null> {
    return null;
  }

  async isCurrent(url: string): Promise<boolean> {
    const { baseUrl } = await this.sandbox();
    return url.startsWith(`${baseUrl}/`);
  }

  async test(): Promise<string> {
    const { baseUrl } = await this.sandbox();
    return `The built-in sandbox stores files itself at ${baseUrl}; links last 7 days.`;
  }
}

/** The name a file is stored under at the sandbox: the key's last part, the original name kept readable. */
function storedName(key: string): string {
  return (
    key
      .split('/')
      .pop()!
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(-120) || 'file'
  );
}

/** The sandbox's JSON answer, or null when the body is not one (cut off, or not JSON). */
async function jsonOf(response: LightAnswer): Promise<SandboxAnswer | null> {
  try {
    return JSON.parse(await response.text()) as SandboxAnswer;
  } catch {
    return null;
  }
}
