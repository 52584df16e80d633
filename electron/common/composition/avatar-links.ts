import type { Project, SceneElement } from './document';

/** An avatar as one connection's catalogue lists it: its media link there, and whose it is (2 official, 3 uploaded). */
export interface CatalogueAvatarLink {
  url: string;
  from: 2 | 3;
}

/** The sending connection's avatars by id (undefined: not one of its avatars). */
export type AvatarLinks = (avatarId: string) => CatalogueAvatarLink | undefined;

/** A catalogue's list (the service's `avatar_id`, `url`, `from`) as a lookup by id. */
export function avatarLinksOf(
  items: ReadonlyArray<{ avatar_id?: string | null; url?: string | null; from?: number | null }>,
): AvatarLinks {
  const byId = new Map<string, CatalogueAvatarLink>();
  for (const item of items)
    if (item.avatar_id && item.url) byId.set(item.avatar_id, { url: item.url, from: item.from === 3 ? 3 : 2 });
  return (avatarId) => byId.get(avatarId);
}

/**
 * The project as the sending connection sends it: each avatar whose link came from a catalogue (`urlFrom`)
 * gets the link and origin of its id in this connection's catalogue, so a project made on one connection
 * (a folder's built-in sandbox, whose port passes with its process) is sent whole on another. A link the
 * user gave, and an avatar this catalogue lacks (the check names it), stay as they are.
 */
export function withCatalogueAvatars(project: Project, links: AvatarLinks | undefined): Project {
  if (!links) return project;
  const relink = (e: SceneElement): SceneElement => {
    if (e.type !== 'avatar' || e.urlFrom !== 'catalogue' || !e.avatarId) return e;
    const found = links(e.avatarId);
    return found && (found.url !== e.url || found.from !== e.avatarFrom)
      ? { ...e, url: found.url, avatarFrom: found.from }
      : e;
  };
  if (!project.scenes.some((s) => s.elements.some((e) => relink(e) !== e))) return project;
  return { ...project, scenes: project.scenes.map((s) => ({ ...s, elements: s.elements.map(relink) })) };
}
