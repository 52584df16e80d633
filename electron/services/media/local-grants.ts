import { resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The local files the user handed to the studio (a file dialog, a drop, an import), by file: URL.
 * A bridge call that takes media may read a local file only when it is here: the page can name a path,
 * but it cannot grant one.
 */
export class LocalGrants {
  private readonly granted = new Set<string>();

  /** Records a file the user chose and returns the reference the page may use for it. */
  grant(path: string): string {
    const url = pathToFileURL(resolvePath(path)).href;
    this.granted.add(url);
    return url;
  }

  /** The path of a granted reference, or null for anything else (ungranted files, other schemes). */
  pathOf(reference: string): string | null {
    const value = reference.trim();
    if (!value.startsWith('file:') || !this.granted.has(value)) return null;
    try {
      return fileURLToPath(value);
    } catch {
      return null;
    }
  }

  isGranted(reference: string): boolean {
    return this.pathOf(reference) !== null;
  }
}
