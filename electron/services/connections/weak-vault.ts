// The `weak1:` encoding the safe-storage vault writes when the OS offers no encryption and the user has
// accepted storing secrets without it (see vault-consent.ts).

/** Reversible on purpose: this is obfuscation so a secret does not show up in a grep, not protection. */
export function encodeWeak(secret: string): string {
  const bytes = new TextEncoder().encode(secret).map((b, i) => b ^ ((0x5a + i) % 256));
  return `weak1:${Buffer.from(bytes).toString('base64')}`;
}

export function decodeWeak(stored: string): string {
  const raw = Buffer.from(stored.replace(/^weak1:/, ''), 'base64');
  return new TextDecoder().decode(raw.map((b, i) => b ^ ((0x5a + i) % 256)));
}
