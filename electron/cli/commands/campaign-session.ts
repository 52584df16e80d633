import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CampaignCheckView, CampaignInput as CampaignFields } from '../../common/bridge/campaigns';
import type { Project } from '../../common/composition/document';
import { columnVariables, findVariables, type CampaignTemplate } from '../../common/campaign/variables';
import { campaignPrice } from '../../common/campaign/price';
import { creditsText, describePrice, type PaidConfirmation } from '../../common/jobs/cost-model';
import { linkBeside } from '../../services/campaign/campaign-check';
import { OwnerCallError } from '../../services/host/owner-client';
import type { StudioLink } from '../studio-link';
import { RefusedError, UsageError, flag, type CliIo, type ParsedArgs } from '../command';
import { readProjectArg, resolveRelativeMedia } from './project-file';
import { maxCreditsOf, sayCovers } from './paid-confirm';
import { ask } from '../ask';
import { rowLabel, sheetRow } from '../../common/text/row-label';
import { parseRowSelection, rangeText, selectionText, type RowSelection } from '../../common/campaign/row-selection';

/** The options `campaign check` and `campaign run` share. */
export const CAMPAIGN_INPUT_OPTIONS = [
  {
    name: '--name',
    value: 'TEMPLATE',
    help: 'the output file names, e.g. "{{row}} - {{first name}}" (default: {{row}} and the first variable)',
  },
  { name: '--column', value: 'VAR=COLUMN', multiple: true, help: 'read a variable from a column of another name' },
  {
    name: '--rows',
    value: 'ROWS',
    help: 'only these rows of the spreadsheet, numbered as the sheet numbers them (the header is usually row 1): 2-301 for the first 300, a single row, or a list such as 2-10,15; the others are not checked, priced or made',
  },
] as const;

/** The rows `--rows` names (undefined: every row); a bad list is refused with what is wrong in it. */
export function rowsOf(args: ParsedArgs): RowSelection | undefined {
  const given = flag(args, '--rows');
  if (given === undefined) return undefined;
  try {
    return parseRowSelection(given);
  } catch (error) {
    throw new UsageError(`--rows ${given}: ${(error as Error).message}. Nothing was sent.`);
  }
}

/**
 * Refuses a `--rows` range that holds no row of the spreadsheet (past its end, or only its header or
 * blank lines): the run would quietly make less than asked for. The check answered only the rows asked for.
 */
function requireRowsFound(check: CampaignCheckView, selection: RowSelection | undefined, label: string): void {
  if (!selection) return;
  const numbers = check.rows.map((row) => sheetRow(row));
  const empty = selection.filter(([from, to]) => !numbers.some((n) => n >= from && n <= to));
  if (empty.length === 0) return;
  throw new UsageError(
    `--rows ${selectionText(selection)}: ${label} has no row numbered ${empty.map(rangeText).join(' or ')} (past its last row, or only its header or blank lines there). Nothing was sent.`,
  );
}

export interface CampaignInput {
  template: CampaignTemplate;
  sheetPath: string;
  label: string;
}

/** The template project (media paths relative to it) and the spreadsheet, from the command line. */
export async function readCampaignInput(args: ParsedArgs, io: CliIo): Promise<CampaignInput> {
  const { project, path } = await readProjectArg(args, io);
  const rows = args.positional[1];
  if (!rows) throw new UsageError('Give the spreadsheet of rows (CSV, TSV or .xlsx) after the template');
  const withMedia = keepPlaceholders(project, resolveRelativeMedia(project, path));
  const first = columnVariables({ project: withMedia, fileName: '' })[0];
  const fileName = flag(args, '--name') ?? (first ? `{{row}} - {{${first.name}}}` : '{{row}}');
  return { template: { project: withMedia, fileName }, sheetPath: resolve(io.cwd, rows), label: basename(rows) };
}

/** Media paths are read beside the project, but a link that is a placeholder is the row's to give. */
function keepPlaceholders(original: Project, resolved: Project): Project {
  const keep = (was: string | undefined, now: string | undefined): string | undefined =>
    was !== undefined && was.includes('{{') ? was : now;
  return {
    ...resolved,
    scenes: resolved.scenes.map((scene, s) => {
      const before = original.scenes[s];
      const voice =
        scene.voice?.kind === 'url' && before.voice?.kind === 'url'
          ? { ...scene.voice, url: keep(before.voice.url, scene.voice.url) as string }
          : scene.voice;
      return {
        ...scene,
        voice,
        elements: scene.elements.map((e, i) => ({ ...e, url: keep(before.elements[i].url, e.url) as string })),
      };
    }),
  };
}

/** `--column "first name=Given name"` → { "first name": "Given name" }. */
export function columnMapping(args: ParsedArgs): Record<string, string> {
  const given = args.flags['--column'];
  const pairs = Array.isArray(given) ? given : typeof given === 'string' ? [given] : [];
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1)
      throw new UsageError(`--column takes VARIABLE=COLUMN, e.g. "first name=Given name" (got "${pair}")`);
    mapping[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return mapping;
}

/** A campaign as the bridge takes it, its defaults filled in. */
export type CampaignRequest = CampaignFields & { concurrency: number };

/** A file: URL or path of an existing regular file, as an absolute path; null for anything else. */
function existingFile(value: string): string | null {
  let path: string;
  try {
    path = value.startsWith('file:') ? fileURLToPath(value) : value;
  } catch {
    return null;
  }
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

/** Every local file the template's media name (file: URLs beside the project), named to the studio: the references stay the same. */
async function nameTemplateMedia(studio: StudioLink, project: Project): Promise<void> {
  const urls = project.scenes.flatMap((scene) => [
    ...(scene.voice?.kind === 'url' ? [scene.voice.url] : []),
    ...(scene.voice?.kind === 'tts' && scene.voice.audioUrl ? [scene.voice.audioUrl] : []),
    ...scene.elements.flatMap((e) => (e.url ? [e.url] : [])),
  ]);
  for (const url of new Set(urls)) {
    if (!url.startsWith('file:')) continue;
    const path = existingFile(url);
    if (path) await studio.nameFile(path, 'media');
  }
}

/**
 * The campaign as the studio takes it: the template (its local media named to the studio), the
 * spreadsheet by the reference it answered, and the rows' local files (a path in a link column, read
 * beside the spreadsheet) named too and put in place of the paths, as the user's corrections of cells.
 */
export async function campaignRequest(
  studio: StudioLink,
  input: CampaignInput,
  args: ParsedArgs,
  extra: Pick<
    CampaignFields,
    'outDir' | 'concurrency' | 'key' | 'retryFailed' | 'retryUnknown' | 'maxCredits' | 'existing' | 'queue'
  >,
): Promise<CampaignRequest> {
  await nameTemplateMedia(studio, input.template.project);
  const sheet = await studio.nameFile(input.sheetPath, 'sheet').catch((error: unknown) => {
    throw error instanceof OwnerCallError && error.code !== 'not-served'
      ? new UsageError(`Cannot read ${input.label}: ${error.message}`)
      : error;
  });
  const request: CampaignRequest = {
    project: input.template.project,
    file: sheet.url,
    label: input.label,
    fileName: input.template.fileName,
    mapping: columnMapping(args),
    rows: rowsOf(args),
    ...extra,
    concurrency: extra.concurrency ?? 4,
  };
  const links = new Set(
    findVariables(input.template)
      .filter((v) => v.places.some((p) => p.field === 'link'))
      .map((v) => v.key),
  );
  if (links.size === 0) return request;
  const first = await studio.call('campaigns.check', request);
  const beside = linkBeside(dirname(input.sheetPath));
  const edits: Record<string, Record<string, string>> = {};
  for (const row of first.rows) {
    for (const [key, value] of Object.entries(row.values)) {
      if (!links.has(key) || value.trim() === '') continue;
      const link = beside(value.trim());
      if (link === value.trim()) continue;
      // A file that is not there stays its file: URL, which the check names as broken.
      const path = existingFile(link);
      (edits[String(row.row)] ??= {})[key] = path ? (await studio.nameFile(path, 'media')).url : link;
    }
  }
  return Object.keys(edits).length > 0 ? { ...request, edits } : request;
}

/**
 * Prints what the check found; answers how many rows cannot be sent. With `--rows`, the check is of
 * those rows alone, and a range that found none is refused.
 */
export function reportCheck(check: CampaignCheckView, label: string, io: CliIo, selection?: RowSelection): number {
  requireRowsFound(check, selection, label);
  const bad = check.rows.filter((r) => r.problems.length > 0);
  const heldCount = check.rows.filter((r) => r.problems.length === 0 && r.held.length > 0).length;
  io.err(
    `${label}: read as ${check.readAs}; ${check.rows.length} row${check.rows.length === 1 ? '' : 's'}, ${check.rows.length - bad.length - heldCount} can be sent${bad.length ? `, ${bad.length} cannot` : ''}${heldCount ? `, ${heldCount} held until they fit` : ''}.`,
  );
  const columns = Object.entries(check.columns).map(([key, column]) => `{{${key}}} ← "${column}"`);
  if (columns.length) io.err(`Columns: ${columns.join(', ')}`);
  for (const problem of check.problems) io.err(`Cannot start: ${problem}`);
  for (const row of bad) io.err(`${rowLabel(row, { capital: true })}: ${row.problems.join('; ')}`);
  const held = check.rows.filter((r) => r.problems.length === 0 && r.held.length > 0);
  for (const row of held)
    io.err(`${rowLabel(row, { capital: true })} held, not sent until it fits: ${row.held.join('; ')}`);
  if (held.length > 0 && check.speech) io.err(check.speech);
  return bad.length + held.length;
}

/**
 * The campaign's one price question, with every line (voiceovers and videos of the rows still to send):
 * --yes answers it for a script; on a terminal "y" does. Refused (nothing sent) otherwise. Answers null
 * when nothing is left to send (a campaign gone on with). The studio refuses the start itself when the
 * total does not fit in today's spending limit.
 */
export async function confirmCampaign(
  studio: StudioLink,
  request: CampaignRequest,
  args: ParsedArgs,
  io: CliIo,
): Promise<PaidConfirmation | null> {
  const quote = await studio.call('campaigns.quote', request).catch((error: unknown) => {
    if (error instanceof OwnerCallError && error.code === 'nothing-to-send') return null;
    throw error;
  });
  if (!quote) return null;
  const price = campaignPrice(quote);
  const lines = quote.items.map((item) => `${item.count} × ${item.action}`).join(' + ');
  io.err(
    `${lines} on "${quote.connectionName}": ${describePrice(price)}${quote.balance === null ? '' : ` Balance: ${creditsText(quote.balance)}.`}`,
  );
  // One video per row: the last line's count is the rows to send.
  sayCovers(io, quote, quote.items[quote.items.length - 1]?.count ?? 0);
  if (args.flags['--yes'] === true || maxCreditsOf(args) !== undefined) return { by: 'script' };
  if (
    (io.stdin !== undefined || process.stdin.isTTY === true) &&
    (await ask(
      io,
      price.published
        ? `Send the campaign for ${creditsText(price.credits)}? [y/N]`
        : 'Send the campaign (its price is not published)? [y/N]',
    ))
  )
    return { by: 'user', credits: price.published ? price.credits : null };
  throw new RefusedError(
    'Nothing was sent: a campaign is paid. Answer y on a terminal, or pass --yes to send it from a script.',
  );
}
