import { DEFAULT_AVATAR_PAGE_SIZE, type AvatarRecord } from '../../common/api';
import type { ServiceClient } from './service-client';

/** Enough pages for 10,000 avatars; past that the account is not one a person browses. */
const MAX_PAGES = 100;

type ListItem = AvatarRecord & { avatar_id: string; url: string };

/**
 * Finds an avatar by its `avatar_id`, page by page as the interface pages the list (it gives no
 * total, so a page shorter than its size is the last one). `from` 3 looks only at uploads.
 */
export async function findAvatar(
  client: ServiceClient,
  avatarId: string,
  options: { from?: 2 | 3; signal?: AbortSignal } = {},
): Promise<ListItem | null> {
  const size = DEFAULT_AVATAR_PAGE_SIZE;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const items = await client.call(
      'avatarList',
      { ...(options.from ? { from: options.from } : {}), page, size },
      { signal: options.signal },
    );
    const found = items.find((a) => a.avatar_id === avatarId);
    if (found) return found;
    if (items.length < size) return null;
  }
  return null;
}
