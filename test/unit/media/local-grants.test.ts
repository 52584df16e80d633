// The page may read a local file only when the user handed it to the studio (a grant), or when the
// studio made it in its own media folder (text pictures, mixes): those are readable without a grant
// kept for each, since a campaign draws a picture a row and the record of grants grew with every row.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LocalGrants } from '../../../electron/services/media/local-grants';

function grantsRecord() {
  let value = { files: [] as string[] };
  const writes: string[][] = [];
  const store = {
    path: '/data/local-files.json',
    get: () => value,
    set: (next: typeof value) => void (writes.push(next.files), (value = next)),
    update: (change: (current: typeof value) => typeof value) => (value = change(value)),
  };
  return { store, writes };
}

const media = resolve('/data/studio/media');
const url = (path: string) => pathToFileURL(path).href;

describe('the local files the page may read', () => {
  it("reads the studio's own media without recording a grant for each", () => {
    const { store, writes } = grantsRecord();
    const grants = new LocalGrants(store, [media]);
    const pictures = Array.from({ length: 50 }, (_, i) => join(media, 'text', `text-${i}.png`));
    for (const picture of pictures) expect(grants.pathOf(grants.grant(picture))).toBe(picture);
    expect(writes).toEqual([]);
  });

  it('still needs a grant for any other file, however its name is spelt', () => {
    const { store, writes } = grantsRecord();
    const grants = new LocalGrants(store, [media]);
    for (const stranger of [
      '/home/me/secret.png',
      join(media, '..', 'records.db'),
      `${media}-other/picture.png`,
      media,
    ])
      expect(grants.pathOf(url(stranger))).toBeNull();
    const chosen = resolve('/home/me/photo.jpg');
    expect(grants.pathOf(grants.grant(chosen))).toBe(chosen);
    expect(writes).toEqual([[url(chosen)]]);
    // Made elsewhere, the same picture is a file like any other.
    expect(new LocalGrants(grantsRecord().store).pathOf(url(join(media, 'text', 'a.png')))).toBeNull();
  });
});
