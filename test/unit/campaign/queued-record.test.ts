// A queued campaign's record is handed to workers elsewhere with links only. Its rows' local files go up
// through the host's linker in one call, so a file that every row names (a shared logo) is hashed and sent
// once, not once a row: at 100,000 rows, one a row was minutes of the studio before the first row.
import { describe, expect, it } from 'vitest';
import type { CampaignRecord } from '../../../electron/common/campaign/record';
import { linkedForQueue } from '../../../electron/services/campaign/queued-record';
import { LocalMediaLinker } from '../../../electron/services/storage/local-media-linker';
import type { StorageServices } from '../../../electron/services/storage/storage-services';
import type { LocalGrants } from '../../../electron/services/media/local-grants';
import { smallTemplate } from './campaign-harness';

const ROWS = 2_000;

/** The host's linker over an uploader that counts the files it is given and answers a link for each. */
function countingLinker() {
  const sent: string[] = [];
  const uploader = {
    uploadAll: async (paths: string[]) => {
      sent.push(...paths);
      return paths.map((path) => ({ url: `https://files.example/${path.split('/').pop()}`, fileName: path }));
    },
  };
  const linker = new LocalMediaLinker({
    storage: { uploader, storages: { activeId: () => 'sandbox' } } as unknown as StorageServices,
    grants: { pathOf: (reference: string) => `/granted/${reference.split('/').pop()}` } as unknown as LocalGrants,
  });
  return { sent, link: async <T>(value: T) => (await linker.link('campaign-test', value)).value as T };
}

function campaignOf(rows: number): CampaignRecord {
  return {
    id: 'c1',
    template: smallTemplate(),
    rows: Array.from({ length: rows }, (_, row) => ({
      row,
      state: 'queued',
      problems: [],
      // Every row shares the logo; every tenth names a picture of its own too.
      values: {
        'First name': `N${row}`,
        logo: 'file:///logo.png',
        ...(row % 10 === 0 ? { photo: `file:///p${row}.png` } : {}),
      },
    })),
  } as unknown as CampaignRecord;
}

describe('a campaign handed to a queue', () => {
  it('sends each local file once, however many rows name it, and gives each row its own links', async () => {
    const { sent, link } = countingLinker();
    const record = await linkedForQueue(campaignOf(ROWS), 'redis://127.0.0.1:6379', link);

    expect(sent.filter((path) => path === '/granted/logo.png')).toHaveLength(1);
    expect(sent).toHaveLength(1 + ROWS / 10);
    expect(record.queue).toBe('redis://127.0.0.1:6379');
    expect(record.rows).toHaveLength(ROWS);
    for (const row of record.rows) {
      expect(row.values.logo).toBe('https://files.example/logo.png');
      expect(row.values['First name']).toBe(`N${row.row}`);
      expect(row.values.photo).toBe(row.row % 10 === 0 ? `https://files.example/p${row.row}.png` : undefined);
    }
  });
});
