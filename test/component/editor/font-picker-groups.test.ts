import { flushPromises } from '@vue/test-utils';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SelectGroupOption } from 'naive-ui';

const host = vi.hoisted(() => ({ capped: false }));
vi.mock('@/bridge', () => ({
  call: vi.fn(async (channel: string) => {
    if (channel !== 'text.systemFonts') throw new Error(`unexpected call ${channel}`);
    return {
      faces: [
        {
          id: 'a'.repeat(16),
          family: 'Liberation Sans',
          weight: 400,
          italic: false,
          file: 'LiberationSans-Regular.ttf',
        },
      ],
      skipped: 0,
      capped: host.capped,
    };
  }),
}));

/** The picker's "This computer's fonts" group once the host has answered, from a fresh page. */
async function computerGroup(): Promise<string[]> {
  vi.resetModules();
  const { readSystemFonts, useFontOptions } = await import('@/text/font-options');
  readSystemFonts();
  await flushPromises();
  const groups = useFontOptions(() => 'Source Sans 3').value as SelectGroupOption[];
  return (groups.find((g) => g.key === 'system')?.children ?? []).map((o) => String(o.label));
}

describe("the font picker's list of this computer's fonts", () => {
  beforeEach(() => {
    host.capped = false;
  });

  it('lists the families the host found, and nothing more when the scan read every file', async () => {
    expect(await computerGroup()).toEqual(['Liberation Sans']);
  });

  it("says that some font files were not read when the host's scan stopped at its limit", async () => {
    host.capped = true;
    expect(await computerGroup()).toEqual(['Liberation Sans', 'Not every font was read']);
  });
});
