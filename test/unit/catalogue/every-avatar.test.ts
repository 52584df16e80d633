import { describe, expect, it } from 'vitest';
import type { AvatarQuery, CatalogueAvatar } from '@common/bridge/catalogue';
import { lookupsOf } from '../../../electron/services/campaign/campaign-check';
import { everyAvatar } from '../../../electron/services/catalogue/every-avatar';
import { CatalogueService } from '../../../electron/services/catalogue/catalogue-service';
import { catalogueFactsOf } from '../../../electron/services/projects/templates-domain';

/** A connection with `count` avatars, paged as the service pages them (100 by default); each ask recorded. */
function paged(count: number) {
  const asked: AvatarQuery[] = [];
  const all = Array.from(
    { length: count },
    (_, i) => ({ avatar_id: `Avatar${i + 1}`, url: `https://cdn.example/${i + 1}.mp4` }) as CatalogueAvatar,
  );
  return {
    asked,
    voices: async () => [{ voice_id: 'sandbox_ava', name: 'Ava' }] as never,
    async avatars(query: AvatarQuery = {}) {
      asked.push(query);
      const page = query.page ?? 1;
      const size = query.size ?? 100;
      return all.slice((page - 1) * size, page * size);
    },
  };
}

describe("a campaign's avatar check reads the connection's whole list", () => {
  it('knows an avatar on the third page and still refuses one that is on none', async () => {
    const catalogue = paged(250);
    const { avatar } = await lookupsOf(catalogue);
    expect(avatar?.('Avatar230')).toBe(true);
    expect(avatar?.('Avatar1')).toBe(true);
    expect(avatar?.('Nobody')).toBe(false);
    expect(catalogue.asked).toEqual([
      { page: 1, size: 100 },
      { page: 2, size: 100 },
      { page: 3, size: 100 },
    ]);
  });

  it('stops at the empty page after a list that fills its last page exactly', async () => {
    const catalogue = paged(200);
    expect(await everyAvatar(catalogue)).toHaveLength(200);
    expect(catalogue.asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('leaves avatars unchecked, rather than refusing real ones, when the list is longer than it reads', async () => {
    const catalogue = paged(10_050);
    await expect(everyAvatar(catalogue)).rejects.toThrow(/more than 10000 avatars/);
    const { avatar } = await lookupsOf(catalogue);
    expect(avatar).toBeNull();
  });
});

describe("a template's avatars are matched against the connection's whole list", () => {
  it('keeps an avatar that is on the third page when a project is made from a template', async () => {
    const lists = paged(250);
    // The catalogue service the host and the CLI hand to catalogueFactsOf, over a client that pages.
    const client = {
      call: async (name: string, query: AvatarQuery) => (name === 'avatarList' ? lists.avatars(query) : lists.voices()),
    };
    const catalogue = new CatalogueService({
      connections: { active: async () => ({ id: 'c' }), client: async () => client as never },
      clock: { now: () => 0 },
    });
    const facts = await catalogueFactsOf(catalogue);
    expect(facts.avatars).toHaveLength(250);
    expect(facts.avatars.find((a) => a.avatarId === 'Avatar230')).toEqual({
      avatarId: 'Avatar230',
      url: 'https://cdn.example/230.mp4',
      from: 2,
    });
  });
});
