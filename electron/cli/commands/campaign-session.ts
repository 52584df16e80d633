import { basename, dirname, resolve } from 'node:path';
import type { Project } from '../../common/composition/document';
import { DEFAULT_PLACEMENT, type PlacementConvention } from '../../common/composition/placement';
import { columnVariables, type CampaignTemplate } from '../../common/campaign/variables';
import { campaignPrice } from '../../common/campaign/price';
import type { CampaignRecord } from '../../common/campaign/record';
import { creditsText, describePrice, type PaidConfirmation } from '../../common/jobs/cost-model';
import { checkCampaignFile, type CampaignCheck } from '../../services/campaign/campaign-check';
import { campaignQuote, requireCampaignConfirmed } from '../../services/campaign/campaign-setup';
import { LinkChecker } from '../../services/media/link-checker';
import { createMediaToolkit } from '../../services/media/toolkit';
import type { CliHost } from '../cli-host-types';
import { RefusedError, UsageError, flag, type CliIo, type ParsedArgs } from '../command';
import { readProjectArg, resolveRelativeMedia } from './project-file';
import { ask } from '../ask';

/** The options `campaign check` and `campaign run` share. */
export const CAMPAIGN_INPUT_OPTIONS = [
  {
    name: '--name',
    value: 'TEMPLATE',
    help: 'the output file names, e.g. "{{row}} - {{first name}}" (default: {{row}} and the first variable)',
  },
  { name: '--column', value: 'VAR=COLUMN', multiple: true, help: 'read a variable from a column of another name' },
] as const;

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

/** Checks every row on this machine: the connection's voices and avatars, each link fetched and probed once. */
export async function checkCampaign(
  host: CliHost,
  input: CampaignInput,
  args: ParsedArgs,
  io: CliIo,
): Promise<CampaignCheck> {
  const toolkit = createMediaToolkit({
    dataDir: host.dataDir,
    resolve: { env: io.env },
    settings: () => host.settings.get(),
  });
  try {
    const checker = new LinkChecker({ cache: toolkit.cache, prober: toolkit.prober });
    return await checkCampaignFile(
      input.template,
      input.sheetPath,
      {
        catalogue: host.catalogue,
        checkLinks: async (urls) => {
          await host.sandboxServing(urls);
          return checker.check(urls, { fresh: true });
        },
      },
      { mapping: columnMapping(args), placement: await placementOf(host) },
    );
  } catch (error) {
    if (error instanceof Error && error.name === 'SheetRefusal')
      throw new UsageError(`Cannot read ${input.label}: ${error.message}`);
    throw error;
  } finally {
    await toolkit.dispose();
  }
}

/** The convention the connection's bodies are written in (the sandbox's, or one Check placement measured). */
export async function placementOf(host: CliHost): Promise<PlacementConvention> {
  const active = await host.target.active();
  const view = (await host.connections.state()).connections.find((c) => c.id === active.id);
  return view?.placement ? { anchor: view.placement.anchor, scale: view.placement.scale } : DEFAULT_PLACEMENT;
}

/** Prints what the check found; answers how many rows cannot be sent. */
export function reportCheck(check: CampaignCheck, label: string, io: CliIo): number {
  const bad = check.rows.filter((r) => r.problems.length > 0);
  io.err(
    `${label}: read as ${check.readAs}; ${check.rows.length} row${check.rows.length === 1 ? '' : 's'}, ${check.rows.length - bad.length} can be sent${bad.length ? `, ${bad.length} cannot` : ''}.`,
  );
  const columns = Object.entries(check.columns).map(([key, column]) => `{{${key}}} ← "${column}"`);
  if (columns.length) io.err(`Columns: ${columns.join(', ')}`);
  for (const problem of check.problems) io.err(`Cannot start: ${problem}`);
  for (const row of bad) io.err(`Row ${row.row + 1}: ${row.problems.join('; ')}`);
  return bad.length;
}

/**
 * The campaign's one price question, with every line (voiceovers and videos of the rows still to send):
 * --yes answers it for a script; on a terminal "y" does. Refused (nothing sent) otherwise, or when the
 * total does not fit in today's spending limit.
 */
export async function confirmCampaign(
  host: CliHost,
  record: CampaignRecord,
  args: ParsedArgs,
  io: CliIo,
): Promise<void> {
  const items = campaignQuote(record);
  if (items.length === 0) return;
  const quote = await host.engine.quote(items);
  const price = campaignPrice(quote);
  const lines = quote.items.map((item) => `${item.count} × ${item.action}`).join(' + ');
  io.err(
    `${lines} on "${quote.connectionName}": ${describePrice(price)}${quote.balance === null ? '' : ` Balance: ${creditsText(quote.balance)}.`}`,
  );
  let confirmation: PaidConfirmation;
  if (args.flags['--yes'] === true) confirmation = { by: 'script' };
  else if (
    (io.stdin !== undefined || process.stdin.isTTY === true) &&
    (await ask(
      io,
      price.published
        ? `Send the campaign for ${creditsText(price.credits)}? [y/N]`
        : 'Send the campaign (its price is not published)? [y/N]',
    ))
  ) {
    confirmation = { by: 'user', credits: price.published ? price.credits : null };
  } else
    throw new RefusedError(
      'Nothing was sent: a campaign is paid. Answer y on a terminal, or pass --yes to send it from a script.',
    );
  try {
    requireCampaignConfirmed(quote, record, confirmation, host.engine.policy());
  } catch (error) {
    throw new RefusedError(`Nothing was sent: ${(error as Error).message}`);
  }
}

/** Where paths in the spreadsheet's link columns are read from. */
export function sheetFolderOf(input: CampaignInput): string {
  return dirname(input.sheetPath);
}
