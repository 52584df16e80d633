import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CatalogueService } from '../catalogue/catalogue-service';
import { everyAvatar } from '../catalogue/every-avatar';
import type { LinkReport } from '../../common/composition/link-checks';
import { urlKind } from '../../common/composition/rules';
import {
  checkRows,
  fillRows,
  rowLinks,
  type CampaignLookups,
  type CheckedRow,
  type RowCheckOptions,
} from '../../common/campaign/row-check';
import { campaignTable, MAX_CAMPAIGN_ROWS } from '../../common/campaign/rows';
import { columnVariables, templateProblems, type CampaignTemplate } from '../../common/campaign/variables';
import { readSheetFile } from '../sheets/read-sheet';
import { rowHolds, variablesInText } from '../../common/campaign/speech-fit';
import { followsVoice } from '../../common/composition/voice-follow';
import { SpeechEstimator } from './speech-estimate';
import { knownVoicesOf } from '../voices/batch-input';
import { sheetRow } from '../../common/text/row-label';

/** What the campaign's check uses of the host: the catalogue and the editor's link pre-flight. */
export interface CampaignCheckDeps {
  catalogue: Pick<CatalogueService, 'voices' | 'avatars'>;
  /** The link checker (services/media/link-checker.ts): each link fetched and probed once, for every row. */
  checkLinks(urls: readonly string[]): Promise<LinkReport[]>;
  /** Each script's speech length, estimated (without it: counted in words). */
  speech?: SpeechEstimator;
}

/** A checked row, and why it is held before anything is sent (its voice overruns a fixed scene, a value is absurdly long). */
export interface CampaignCheckedRow extends CheckedRow {
  held: string[];
}

export interface CampaignCheck {
  /** How the spreadsheet was read ("a comma-separated file in UTF-8"). */
  readAs: string;
  /** Which column each variable is read from. */
  columns: Record<string, string>;
  /** Header cells no variable reads (offered when mapping a variable to another column). */
  unused: string[];
  /** What stops the whole campaign (the template, the file): nothing is sent while there is one. */
  problems: string[];
  rows: CampaignCheckedRow[];
  /** How the rows' speech lengths were estimated; null when no row has a script that a fixed scene must hold. */
  speech: string | null;
  /** Voices the spreadsheet gives by name, and their ids (the campaign's record keeps them). */
  voiceIds: Record<string, string>;
}

export interface CampaignCheckOptions extends Omit<RowCheckOptions, 'link'> {
  /** By variable, the column to read it from when the names differ. */
  mapping?: Record<string, string>;
  /** Cells corrected by the user, by row (0-based) and variable key: they win over the file's. */
  edits?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Each line's number in the spreadsheet (the reader's `lines`), so rows are named as the sheet numbers them. */
  sheetLines?: readonly number[];
  /** Only the rows whose sheet row number this holds are checked (the others are left out before any lookup). */
  only?: (sheetRow: number) => boolean;
}

/**
 * Reads a campaign's spreadsheet (the batch voiceovers' reader: any common encoding, .xlsx) and checks
 * every row before anything is sent. A per-row picture, logo or clip given as a path is read beside the
 * spreadsheet.
 */
export async function checkCampaignFile(
  template: CampaignTemplate,
  sheetPath: string,
  deps: CampaignCheckDeps,
  options: CampaignCheckOptions = {},
): Promise<CampaignCheck> {
  const table = await readSheetFile(sheetPath, { maxRows: MAX_CAMPAIGN_ROWS });
  const checked = await checkCampaignTable(template, table.rows, deps, {
    ...options,
    sheetLines: table.lines,
    link: linkBeside(dirname(sheetPath)),
  });
  return { ...checked, readAs: table.readAs };
}

/** The same check on cells already read (the page's table, edited by the user). */
export async function checkCampaignTable(
  template: CampaignTemplate,
  lines: readonly (readonly string[])[],
  deps: CampaignCheckDeps,
  options: CampaignCheckOptions & RowCheckOptions = {},
): Promise<Omit<CampaignCheck, 'readAs'>> {
  const read = campaignTable(lines, columnVariables(template), options.mapping, options.sheetLines);
  const only = options.only;
  const chosen = only ? { ...read, rows: read.rows.filter((row) => only(sheetRow(row))) } : read;
  const table = options.edits
    ? { ...chosen, rows: chosen.rows.map((row) => withEdits(row, options.edits?.[String(row.row)])) }
    : chosen;
  const problems = [...templateProblems(template), ...table.problems];
  const lookups = await lookupsOf(deps.catalogue);
  const filled = fillRows(template, table.rows, lookups, options);
  const urls = rowLinks(filled);
  const reports = new Map((urls.length > 0 ? await deps.checkLinks(urls) : []).map((report) => [report.url, report]));
  const { rows, speech } = await withHolds(template, checkRows(filled, reports, options), deps.speech);
  return {
    columns: table.columns,
    unused: table.unused,
    problems,
    rows,
    speech,
    voiceIds: voiceIdsOf(template, table.rows, lookups),
  };
}

/**
 * Each row that passes the check, held when its estimated voice overruns a fixed-length scene or a value
 * is absurdly long: it is not sent (nor priced) until the user fits it.
 */
async function withHolds(
  template: CampaignTemplate,
  rows: CheckedRow[],
  estimator = new SpeechEstimator(null),
): Promise<{ rows: CampaignCheckedRow[]; speech: string | null }> {
  const scripts = rows.flatMap((row) =>
    row.problems.length > 0 || row.project.kind !== 'avatar-video'
      ? []
      : row.project.scenes.flatMap((scene) =>
          scene.voice?.kind === 'tts' && !scene.voice.audioUrl && !followsVoice(row.project, scene)
            ? [{ text: scene.voice.text, voiceId: scene.voice.voiceId, rate: scene.voice.rate }]
            : [],
        ),
  );
  const { estimate, how } = await estimator.estimates(scripts);
  const inText = variablesInText(template);
  return {
    rows: rows.map((row) => ({
      ...row,
      held: row.problems.length > 0 ? [] : rowHolds(row.project, row.values, inText, estimate),
    })),
    speech: scripts.length > 0 ? how : null,
  };
}

function withEdits<R extends { values: Readonly<Record<string, string>> }>(
  row: R,
  edits: Readonly<Record<string, string>> | undefined,
): R {
  if (!edits) return row;
  const values = { ...row.values };
  for (const [key, value] of Object.entries(edits)) values[key] = value.trim();
  return { ...row, values };
}

/** Each voice a row names in a voice column that is not an id itself, with its id. */
function voiceIdsOf(
  template: CampaignTemplate,
  rows: readonly { values: Readonly<Record<string, string>> }[],
  lookups: CampaignLookups,
): Record<string, string> {
  const ids: Record<string, string> = {};
  const voiceKeys = columnVariables(template)
    .filter((v) => v.places.some((p) => p.field === 'voice'))
    .map((v) => v.key);
  for (const row of rows) {
    for (const key of voiceKeys) {
      const given = row.values[key]?.trim();
      const id = given ? lookups.voice?.(given) : null;
      if (given && id && id !== given) ids[given] = id;
    }
  }
  return ids;
}

/** The connection's voices and avatars; a list that cannot be read is not checked (the service names a wrong one). */
export async function lookupsOf(catalogue: CampaignCheckDeps['catalogue']): Promise<CampaignLookups> {
  const voices = await knownVoicesOf(catalogue);
  let avatar: CampaignLookups['avatar'] = null;
  try {
    const ids = new Set(
      (await everyAvatar(catalogue)).map((a) => a.avatar_id).filter((id): id is string => typeof id === 'string'),
    );
    avatar = (id) => ids.has(id);
  } catch {
    avatar = null;
  }
  return { voice: voices?.idOf ? (given) => voices.idOf?.(given) ?? null : null, avatar };
}

/** A cell that is a path (not a link) names a file beside the spreadsheet, or anywhere when absolute. */
export function linkBeside(folder: string): (value: string) => string {
  return (value) => {
    const kind = urlKind(value);
    if (kind === 'remote' || kind === 'colour' || /^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
    return pathToFileURL(isAbsolute(value) ? value : resolve(folder, value)).href;
  };
}
