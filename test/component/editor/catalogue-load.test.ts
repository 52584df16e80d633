import { createPinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';
import { useEditorAssetsStore, type CatalogueSource } from '@/stores/editor-assets';

function countingSource(): CatalogueSource & { asks: { avatars: number } } {
  const asks = { avatars: 0 };
  return {
    asks,
    avatars: vi.fn(async () => {
      asks.avatars += 1;
      return [
        {
          avatarId: 'a1',
          name: 'Anna',
          url: 'http://127.0.0.1:1/a.mp4',
          thumbnailUrl: null,
          from: 2 as const,
          gender: null,
        },
      ];
    }),
    voices: vi.fn(async () => []),
  };
}

describe('the editor catalogue at start-up', () => {
  it('is asked for once when the start-up and the editor both want it', async () => {
    const assets = useEditorAssetsStore(createPinia());
    const source = countingSource();
    assets.useSource(source);
    const early = assets.load();
    // The editor mounts while the start-up's load is still on its way, then again once it has landed.
    const onMount = assets.ensureLoaded();
    await Promise.all([early, onMount]);
    await assets.ensureLoaded();
    expect(source.asks.avatars).toBe(1);
    expect(assets.avatars.map((a) => a.name)).toEqual(['Anna']);
  });

  it('asks again when told to reload, or after a failed load', async () => {
    const assets = useEditorAssetsStore(createPinia());
    const source = countingSource();
    vi.mocked(source.voices).mockRejectedValueOnce(new Error('offline'));
    assets.useSource(source);
    await assets.load();
    expect(assets.error).toBe('offline');
    await assets.ensureLoaded();
    expect(assets.error).toBeNull();
    await assets.load();
    expect(source.asks.avatars).toBe(3);
  });
});
