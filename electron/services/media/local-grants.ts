import { isAbsolute, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { RecordStore, RecordStoreSpec } from '../host/types';

/** Kept so a project reopened later can still preview and upload the files the user gave it. */
const GrantsRecord = z.object({ files: z.array(z.string()) });
export const localGrantsSpec: RecordStoreSpec<z.infer<typeof GrantsRecord>> = {
  name: 'local-files',
  schema: GrantsRecord,
  defaults: { files: [] },
  version: 1,
  // A grant lost in a crash means choosing that file again; a campaign grants every row's picture.
  writeBehindMs: 1000,
};
const KEEP_AT_MOST = 5000;

/** The one answer for any media reference the page may not read (same for missing and unreadable files). */
export const NOT_GRANTED =
  'Only http(s) links, or files chosen with "Choose file" or dropped on the studio, can be used as media.';

/**
 * The local files the user handed to the studio (a file dialog, a drop, an import), by file: URL.
 * A bridge call that takes media may read a local file only when it is here: the page can name a path,
 * but it cannot grant one.
 */
export class LocalGrants {
  private readonly granted: Set<string>;
  private readonly ownDirs: string[];

  constructor(
    private readonly store?: RecordStore<z.infer<typeof GrantsRecord>>,
    /**
     * Folders of the studio's own making (its text pictures, mixes, previews): their files are readable
     * without a grant kept for each. A campaign draws a picture a row, and a grant a row grew this record
     * (and its copy in memory) with every row, rewritten whole each second.
     */
    ownDirs: readonly string[] = [],
  ) {
    this.granted = new Set(store?.get().files ?? []);
    this.ownDirs = ownDirs.map((dir) => resolvePath(dir));
  }

  /** Records a file the user chose and returns the reference the page may use for it. */
  grant(path: string): string {
    const url = pathToFileURL(resolvePath(path)).href;
    if (this.owned(resolvePath(path))) return url;
    if (!this.granted.has(url)) {
      this.granted.add(url);
      this.store?.set({ files: [...this.granted].slice(-KEEP_AT_MOST) });
    }
    return url;
  }

  /** The path of a granted reference, or null for anything else (ungranted files, other schemes). */
  pathOf(reference: string): string | null {
    const value = reference.trim();
    if (!value.startsWith('file:')) return null;
    let path: string;
    try {
      path = fileURLToPath(value);
    } catch {
      return null;
    }
    return this.granted.has(value) || this.owned(path) ? path : null;
  }

  /** Whether the path lies inside one of the studio's own folders (`..` and other roots do not). */
  private owned(path: string): boolean {
    return this.ownDirs.some((dir) => {
      const inside = relative(dir, resolvePath(path));
      return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
    });
  }
}
