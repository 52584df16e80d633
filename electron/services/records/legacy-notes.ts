import { join } from 'node:path';
import type { LegacyCopy } from '../downloads/adopt-copies';
import type { RecordsDatabase } from './database';

/**
 * The campaign rows marked saved whose link has no campaign copy in the record: the files earlier
 * versions noted in the row alone. A row saved by this version has its copy recorded as it is saved,
 * so a start finds none of those here. The database reads each row's JSON where it lies (the old way
 * read every campaign whole into the host at every start, 100,000 rows read and parsed for no copy).
 */
export const CAMPAIGN_NOTES = `SELECT json_extract(runs.run, '$.outDir'), json_extract(r.record, '$.fileName'),
    json_extract(r.record, '$.resultUrl'), json_extract(r.record, '$.savedAt')
  FROM run_rows r JOIN runs ON runs.kind = r.kind AND runs.id = r.run_id
  WHERE r.kind = 'campaigns' AND json_extract(r.record, '$.savedAt') IS NOT NULL
    AND json_extract(r.record, '$.resultUrl') IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM downloads d INDEXED BY downloads_by_url
      WHERE d.url = json_extract(r.record, '$.resultUrl') AND d.queue = 'studio'
        AND json_extract(d.entry, '$.origin') = 'campaign')`;

/** The copies earlier versions' campaigns noted in their rows and the record does not hold (null: no database). */
export function campaignNotes(database: RecordsDatabase | null): LegacyCopy[] {
  if (!database) return [];
  const rows = database.db.prepare(CAMPAIGN_NOTES).raw().all() as [string, string, string, number][];
  return rows.map(([outDir, fileName, url, savedAt]) => ({
    url,
    path: join(outDir, fileName),
    savedBy: 'campaign' as const,
    savedAt,
  }));
}
