import { createHash } from 'node:crypto';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { rowNumberText } from '../../common/campaign/rows';
import { findVariables, type CampaignTemplate } from '../../common/campaign/variables';
import { linkBeside } from './campaign-check';
import { fromRowNumbers } from '../rows/engine/row-kind';

/**
 * What a campaign row's video is made from, as one string: the template's version, the values the
 * template reads from the row (after the mapping and the user's edits), the output name the row asked
 * for and the target. Two rows with the same identity make the same video, whichever campaign they
 * belong to, so a folder's done row of that identity whose copy is intact is kept instead of paid again.
 * Columns the template does not read (an email kept for the manifest) are not part of it: changing one
 * changes no video.
 */

/** The first `chars` hex digits of the value's SHA-256, as a string of its own (a slice would keep all 64 alive). */
const hash = (value: unknown, chars = 64): string =>
  createHash('sha256')
    .update(JSON.stringify(value))
    .digest()
    .subarray(0, chars / 2)
    .toString('hex');

/** JSON with its object keys in order, so the same document always hashes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** The template's version: a hash of its project's content (not of when or where it was saved). */
export function templateVersion(template: Pick<CampaignTemplate, 'project'>): string {
  return hash(canonical(template.project), 32);
}

type IdentitySource = Pick<CampaignRecord, 'template' | 'target' | 'sheetFolder' | 'variables'> & {
  rows: readonly Pick<CampaignRowRecord, 'row'>[];
};

/**
 * The identity of a row of `record`, `fileName` being the name the row asked for (before any rename
 * the user chose because the folder had a file of that name). Paths in link columns count as the file
 * they name, so a path beside the spreadsheet and the same file's link are one value.
 */
export function rowIdentity(
  record: IdentitySource,
  row: Pick<CampaignRowRecord, 'row' | 'values'>,
  fileName: string,
): string {
  const { version, links, numbered } = templateFacts(record.template);
  const beside = record.sheetFolder ? linkBeside(record.sheetFolder) : (value: string) => value;
  const values = record.variables
    .map((v) => v.key)
    .sort()
    .map((key) => {
      const value = row.values[key] ?? '';
      return [key, links.has(key) && value !== '' ? beside(value) : value];
    });
  // {{row}} in the project fills the row's number, padded to the last row's width: that is content too.
  const last = numbered ? lastRowOf(record.rows) : 0;
  return hash([version, record.target, fileName, values, numbered ? rowNumberText(row.row, last) : null], 40);
}

/** The last row's number, worked out once per run's row numbers (not once per row of thousands, nor per change). */
export function lastRowOf(rows: readonly Pick<CampaignRowRecord, 'row'>[]): number {
  return fromRowNumbers(rows, 'last row', () => rows.reduce((most, r) => Math.max(most, r.row), 0));
}

/** What every row's identity reads of the template, worked out once per template (thousands of rows share it). */
const factsOf = new WeakMap<object, { version: string; links: Set<string>; numbered: boolean }>();
function templateFacts(template: CampaignTemplate): { version: string; links: Set<string>; numbered: boolean } {
  const known = factsOf.get(template.project);
  if (known) return known;
  const variables = findVariables({ project: template.project, fileName: '' });
  const facts = {
    version: templateVersion(template),
    links: new Set(variables.filter((v) => v.places.some((p) => p.field === 'link')).map((v) => v.key)),
    numbered: variables.some((v) => v.key === 'row'),
  };
  factsOf.set(template.project, facts);
  return facts;
}

/** The row's stored identity, or (a record older than identities) the one its inputs give now. */
export function identityOf(record: IdentitySource, row: CampaignRowRecord): string {
  return row.madeFrom ?? rowIdentity(record, row, row.fileName);
}
