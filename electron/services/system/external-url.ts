/**
 * Checks an address before it is handed to the operating system's browser: http(s) only, no embedded
 * credentials, a host name present. Throws an error naming what was wrong.
 */
export function checkExternalUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error('Refused to open a link: it is not a valid address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(
      `Refused to open a link: only http and https addresses are opened, not ${url.protocol.replace(/:$/, '')}`,
    );
  }
  if (url.username || url.password) throw new Error('Refused to open a link: it carries a user name or password');
  if (!url.hostname) throw new Error('Refused to open a link: it names no host');
  return url;
}

export function isSafeExternalUrl(input: string): boolean {
  try {
    checkExternalUrl(input);
    return true;
  } catch {
    return false;
  }
}
