import { classifyHost } from '../../common/net/address-rules';
import { localReferences } from './local-media';
import type { StorageManager } from './storage-manager';

/** What a queued run's links are checked against: the service that fetches them, and where local files will go. */
export interface QueuedLinkFacts {
  /** The base URL of the service the run is priced on. */
  service: string;
  /** The run's values (its template, its rows): every http(s) link and local file in them is looked at. */
  value: unknown;
  /** The address the storage that would take the local files hands out links on (asked only when there are some). */
  storage(): Promise<string>;
}

function hostClass(url: string): ReturnType<typeof classifyHost> | null {
  try {
    return classifyHost(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** Why the host of `url` is not one a remote service can fetch from, or null when it may be. */
function hiddenHost(url: string): string | null {
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  switch (hostClass(url)) {
    case 'loopback':
      return `on ${host}, which is this machine only`;
    case 'private':
      return `on ${host}, a private network address`;
    case 'link-local':
    case 'unspecified':
      return `on ${host}, an address no service reaches`;
    default:
      return null;
  }
}

/**
 * Every distinct http(s) link a JSON value sends for fetching: the values of its `url` fields (an element's,
 * a voice's `voice_url`), not a link written in a script or a picture's text, which nobody fetches.
 */
function webLinks(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [key, inner] of Object.entries(v)) {
        if (typeof inner === 'string' && /url$/i.test(key) && /^https?:\/\//i.test(inner)) found.add(inner);
        else walk(inner);
      }
  };
  walk(value);
  return [...found];
}

/**
 * What in a run sent to a queue the service could not fetch, in sentences (none: every link is fine). A
 * queued row is made by any worker, and its video fetched by the service, so a link to this machine
 * works only when the service runs on this machine itself (a sandbox here, or the service through a
 * local proxy), and a link to a private network never does (the sandbox refuses to fetch one). Such a
 * link is named, and so are local files whose storage hands out such links (the sandbox built into this
 * studio, for a service elsewhere).
 */
export async function unreachableLinks(facts: QueuedLinkFacts): Promise<string[]> {
  const service = new URL(facts.service);
  // This machine's sandbox fetches from this machine (its own files above all), never from a private network.
  const here = classifyHost(service.hostname) === 'loopback';
  const hidden = (url: string) => (here && hostClass(url) === 'loopback' ? null : hiddenHost(url));
  const problems: string[] = [];
  for (const link of webLinks(facts.value)) {
    const why = hidden(link);
    if (why) problems.push(`${link} is ${why}: the service at ${service.origin} cannot fetch it.`);
  }
  const files = localReferences(facts.value);
  if (files.length > 0) {
    const storage = await facts.storage();
    const why = hidden(storage);
    const names = files.map((f) => decodeURIComponent(f.split('/').pop() ?? f)).join(', ');
    if (why)
      problems.push(
        `${names} would be uploaded to the storage at ${new URL(storage).origin}, ${why}: the service at ${service.origin} cannot fetch from there. Make a storage the service reaches the active one (Settings → Storage), or give links the service can fetch.`,
      );
  }
  return problems;
}

/** The address the active storage hands out links on: the sandbox's own, or the bucket's public or API address. */
export async function storageAddress(
  storages: Pick<StorageManager, 'activeId' | 'view'>,
  sandbox: () => Promise<{ baseUrl: string }>,
): Promise<string> {
  const view = await storages.view(storages.activeId());
  if (view.kind === 'sandbox') return (await sandbox()).baseUrl;
  return view.publicBaseUrl ?? view.endpoint ?? 'https://s3.amazonaws.com';
}

/**
 * What makes the active storage that storage, for a queued run's record and a worker's comparison with
 * it (never a key): a bucket by its kind, endpoint (`aws:<region>` for AWS itself) and name; the sandbox by
 * the origin it serves files on.
 */
export async function storageIdentity(
  storages: Pick<StorageManager, 'activeId' | 'view'>,
  sandbox: () => Promise<{ baseUrl: string }>,
): Promise<{ kind: 'sandbox' | 's3'; endpoint: string; bucket?: string }> {
  const view = await storages.view(storages.activeId());
  if (view.kind === 'sandbox') return { kind: 'sandbox', endpoint: new URL((await sandbox()).baseUrl).origin };
  const endpoint = view.endpoint ? new URL(view.endpoint).origin : `aws:${view.region}`;
  return { kind: 's3', endpoint, bucket: view.bucket };
}

/**
 * Why a worker's pictures (text, captions, music mixes it renders for a row) could not be fetched by the
 * service at `service`, or null when they can: its storage hands out links on this machine or a private
 * network, and the service is elsewhere. Such a worker makes none of the run's rows.
 */
export function workerMediaProblem(service: string, storage: string): string | null {
  const here = classifyHost(new URL(service).hostname) === 'loopback';
  const why = here && hostClass(storage) === 'loopback' ? null : hiddenHost(storage);
  if (!why) return null;
  return `the pictures it renders would go to its storage at ${new URL(storage).origin}, ${why}, which the service at ${new URL(service).origin} cannot fetch from`;
}
