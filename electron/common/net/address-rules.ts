/**
 * Which network addresses the studio may talk to, decided from the URL alone (the Node side also
 * checks what a name resolves to: electron/services/net/guarded-fetch.ts). Loopback and public
 * addresses are fine for media; link-local addresses (cloud metadata lives there) never are.
 */
export type AddressClass = 'loopback' | 'link-local' | 'private' | 'unspecified' | 'public';

const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

function ipv4Parts(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const numbers = parts.map(Number);
  return numbers.every((n) => n <= 255) ? numbers : null;
}

function classifyIpv4([a, b]: number[]): AddressClass {
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 169 && b === 254) return 'link-local';
  // 100.100.100.200 (Alibaba's metadata) sits in the carrier-grade NAT block.
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
    return 'private';
  return 'public';
}

/** An IPv4 address written inside IPv6 (::ffff:a9fe:a9fe, ::ffff:169.254.169.254), if any. */
function embeddedIpv4(host: string): number[] | null {
  const dotted = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) return ipv4Parts(dotted[1]);
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex) return null;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255];
}

/** The class of a host name or address as it appears in a URL (IPv6 with or without brackets). */
export function classifyHost(hostname: string): AddressClass {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(host)) return 'link-local';
  const v4 = ipv4Parts(host) ?? embeddedIpv4(host);
  if (v4) return classifyIpv4(v4);
  if (!host.includes(':')) return 'public';
  if (host === '::1') return 'loopback';
  if (host === '::') return 'unspecified';
  if (/^fe[89ab][0-9a-f]?:/.test(host) || host === 'fd00:ec2::254') return 'link-local';
  if (/^f[cd][0-9a-f]{0,2}:/.test(host)) return 'private';
  return 'public';
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Why `url` may not receive a service's credentials, or null when it may: https anywhere public,
 * plain http only to this machine, never a link-local or cloud-metadata address.
 */
export function serviceAddressProblem(url: string): string | null {
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return 'must be an http:// or https:// address';
  const kind = classifyHost(parsed.hostname);
  if (kind === 'link-local' || kind === 'unspecified')
    return `must not be a link-local or cloud-metadata address (${parsed.hostname})`;
  if (parsed.protocol === 'http:' && kind !== 'loopback')
    return 'must use https:// (plain http:// is allowed only to this machine: localhost, 127.0.0.1, ::1)';
  return null;
}

/** Why the studio or the sandbox may not fetch `url` (media, webhooks), or null when it may. */
export function fetchTargetProblem(url: string, options: { refusePrivate?: boolean } = {}): string | null {
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return 'only http(s) links can be fetched';
  return hostProblem(parsed.hostname, options);
}

export function hostProblem(hostname: string, options: { refusePrivate?: boolean } = {}): string | null {
  const kind = classifyHost(hostname);
  if (kind === 'link-local' || kind === 'unspecified')
    return `${hostname} is a link-local or cloud-metadata address, which the studio never fetches`;
  if (kind === 'private' && options.refusePrivate)
    return `${hostname} is an internal network address, which the sandbox never fetches`;
  return null;
}
