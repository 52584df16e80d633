import { DEFAULT_AVATAR_PAGE_SIZE } from '../../common/api';
import type { CatalogueAvatar } from '../../common/bridge/catalogue';

/** What reading the list takes: one page of it at a time (the catalogue service, or a fake). */
export interface AvatarPages {
  avatars(query: { page: number; size: number }): Promise<CatalogueAvatar[]>;
}

/** Enough pages for 10,000 avatars; an account past that is read no further (see everyAvatar). */
const MAX_PAGES = 100;

/**
 * Every avatar of the connection, page by page as the interface pages the list: it gives no total, so a
 * page shorter than its size is the last. Each page goes through the catalogue's cache. A list longer
 * than MAX_PAGES pages is an error rather than a short answer: a caller deciding "not one of this
 * connection's avatars" from a cut list would refuse avatars that exist.
 */
export async function everyAvatar(catalogue: AvatarPages): Promise<CatalogueAvatar[]> {
  const size = DEFAULT_AVATAR_PAGE_SIZE;
  const all: CatalogueAvatar[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const items = await catalogue.avatars({ page, size });
    all.push(...items);
    if (items.length < size) return all;
  }
  throw new Error(`The connection lists more than ${MAX_PAGES * size} avatars; the list was not read to its end.`);
}
