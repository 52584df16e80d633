import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Where a data folder's sandbox keeps its generated key (readable by this user only). */
export const ACCESS_KEY_FILE = 'access-key.json';

const AccessKey = z.object({ apiKey: z.string().min(20), clientSecret: z.string().min(20) });
export type AccessKey = z.infer<typeof AccessKey>;

const fresh = (): AccessKey => ({
  apiKey: `sbx_${randomBytes(24).toString('base64url')}`,
  clientSecret: randomBytes(24).toString('base64url'),
});

/**
 * The sandbox's x-api-key and client secret: generated once per data folder and kept in
 * `<dataDir>/access-key.json` (mode 0600), so another local program cannot guess them and the hosts
 * read them from the running sandbox. A missing or unreadable file gets a new key.
 */
export function sandboxAccessKey(dataDir: string): AccessKey {
  const known = readSandboxAccessKey(dataDir);
  if (known) return known;
  const key = fresh();
  writeFileSync(join(dataDir, ACCESS_KEY_FILE), `${JSON.stringify(key)}\n`, { mode: 0o600 });
  return key;
}

/** The key a sandbox of this folder uses, or null when there is none yet (or it cannot be read). */
export function readSandboxAccessKey(dataDir: string): AccessKey | null {
  try {
    const parsed = AccessKey.safeParse(JSON.parse(readFileSync(join(dataDir, ACCESS_KEY_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
