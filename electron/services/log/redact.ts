/**
 * Keeps secrets out of logs and error messages. Values registered here (API keys, client secrets,
 * tokens as they are learnt) are replaced wherever they appear; fields whose name says they hold a
 * secret are replaced whatever their value.
 */
export const REDACTED = '[redacted]';

const SECRET_WORDS = new Set([
  'key',
  'secret',
  'token',
  'authorization',
  'password',
  'passwd',
  'cookie',
  'credential',
  'credentials',
]);

/** Secrets shorter than this are not searched for in text (they would match ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** True when one of the words of a field name (camelCase, snake_case or kebab-case) names a secret. */
export function isSecretFieldName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

export class Redactor {
  private readonly secrets = new Set<string>();

  register(secret: string | undefined | null): void {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  /** Replaces every registered secret, bearer credential and secret-looking query parameter in text. */
  text(input: string): string {
    let out = input;
    // Longest first, so a secret containing another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      out = out.split(secret).join(REDACTED);
    }
    out = out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`);
    out = out.replace(/([?&](?:[a-z_]*(?:key|secret|token|signature|password)))=[^&\s#"']+/gi, `$1=${REDACTED}`);
    return out;
  }

  /** A deep copy of a value with secret fields and registered secrets replaced. */
  value(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth > 8) return '[nested too deep]';
    if (input instanceof Error) {
      return { name: input.name, message: this.text(input.message), code: (input as { code?: unknown }).code };
    }
    if (Array.isArray(input)) return input.map((item) => this.value(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      out[key] =
        isSecretFieldName(key) && value !== null && value !== undefined && value !== '' && typeof value !== 'boolean'
          ? REDACTED
          : this.value(value, depth + 1);
    }
    return out;
  }
}
