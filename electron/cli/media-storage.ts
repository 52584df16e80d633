import { RefusedError, UsageError } from './command';
import type { StudioLink } from './studio-link';

/** `--media-storage NAME`: where a command's local files and a worker's pictures go, for a run on a queue. */
export function mediaStorageOption(what: string) {
  return {
    name: '--media-storage',
    value: 'STORAGE',
    help: `where ${what} go: a storage by name or id, usually "environment" (STUDIO_S3_*, whose keys stay on this machine), made the data folder's active storage; default the active one. A run on a queue records it (its kind, address and bucket, never a key), and a worker whose pictures would go elsewhere makes none of its rows and says why`,
  } as const;
}

/**
 * Makes the storage named by --media-storage the active one of the studio performing the calls. A
 * command's own data folder takes it as Settings → Storage would; a studio that has the folder open
 * (the app, the web host) keeps the storage its user chose, so a command through it that names
 * another is refused rather than changing it under them.
 */
export async function useMediaStorage(studio: StudioLink, name: string | undefined): Promise<void> {
  if (name === undefined) return;
  const { storages, activeId } = await studio.call('storage.list');
  const wanted = name.trim().toLowerCase();
  const found = storages.find((s) => s.id === name || s.name.toLowerCase() === wanted);
  if (!found)
    throw new UsageError(
      `--media-storage ${name}: no such storage (known: ${storages.map((s) => s.name).join(', ')}); STUDIO_S3_* declares the one named environment`,
    );
  if (found.id === activeId) return;
  if (!studio.own)
    throw new RefusedError(
      `Nothing was sent: the ${studio.kind} that has this data folder open uses another storage than "${found.name}". Make "${found.name}" the active storage there (Settings → Storage), or leave --media-storage out.`,
    );
  await studio.call('storage.setActive', found.id);
}
