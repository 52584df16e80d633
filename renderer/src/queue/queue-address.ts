// The queue a campaign's or a batch's rows can be made on, as the setup takes it: its address (shown,
// kept on the page) and its password (typed apart, hidden, sent with the start request only). The host
// reads the two as one URL; every answer it gives names the address alone.

/** Where a new run's rows are made. */
export type RowsWhere = 'here' | 'queue';

const SCHEME = /^rediss?:\/\//i;

/**
 * What is wrong with a queue address as typed, in words (null: nothing). Checked as the user types, so
 * each message names the one thing to change.
 */
export function queueAddressProblem(typed: string): string | null {
  const text = typed.trim();
  if (text === '') return 'Give the queue’s address, e.g. redis://192.168.1.20:6379.';
  if (!SCHEME.test(text)) return 'The address must start with redis:// (or rediss:// for a TLS connection).';
  const rest = text.replace(SCHEME, '');
  const at = rest.lastIndexOf('@');
  const afterUser = at >= 0 ? rest.slice(at + 1) : rest;
  const slash = afterUser.indexOf('/');
  const authority = slash < 0 ? afterUser : afterUser.slice(0, slash);
  const path = slash < 0 ? '' : afterUser.slice(slash + 1);
  if (at >= 0 && rest.slice(0, at).includes(':'))
    return 'Leave the password out of the address: type it in the password field, where it stays hidden.';
  if (/\s/.test(text)) return 'The address has a space in it.';
  const hostAndPort = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(.*))?$/i.exec(authority);
  if (!hostAndPort) return 'After redis:// comes the host, e.g. redis://queue.example.com:6379.';
  const port = hostAndPort[2];
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535))
    return `The port must be a number from 1 to 65535${port === '' ? ' after the colon' : `, not "${port}"`}.`;
  if (path !== '' && !/^\d{1,2}$/.test(path))
    return `After the port only a database number may follow (e.g. /0), not "/${path}".`;
  try {
    new URL(text);
  } catch {
    return 'The address is not a valid URL: write it as redis://HOST:PORT.';
  }
  return null;
}

/**
 * The URL the host connects with: the address with the password put in (percent-encoded, so any
 * character may be in it). Without a password, the address as typed.
 */
export function queueUrl(address: string, password: string): string {
  const text = address.trim();
  if (password === '') return text;
  const scheme = SCHEME.exec(text)?.[0] ?? 'redis://';
  const rest = text.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const user = at >= 0 ? rest.slice(0, at) : '';
  return `${scheme}${user}:${encodeURIComponent(password)}@${at >= 0 ? rest.slice(at + 1) : rest}`;
}
