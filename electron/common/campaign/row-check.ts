import { batchRowProblem } from '../bridge/batches';
import type { Project, ProjectKind } from '../composition/document';
import { linkProblems, projectLinks, type LinkReport } from '../composition/link-checks';
import type { PlacementConvention } from '../composition/placement';
import { capitalise, sceneLabel } from '../composition/render-plan';
import { effectiveAvatarFrom, type PlanTier } from '../composition/rules';
import { validateProject } from '../composition/validate';
import { safeRelativeName } from '../file-names';
import { rowNumberText, type CampaignRow } from './rows';
import { fillTemplate, type CampaignTemplate } from './variables';
import { rowLabel, type NumberedRow } from '../text/row-label';

/**
 * The per-row check a campaign runs before anything is sent, as the editor's pre-flight does for one
 * project: each row filled into the template, then its values, voices, avatars, scripts, links and file
 * name checked. A bad row is named with every reason; the others can go. Pure: the host passes what it
 * knows of the connection (voices, avatars) and what its link checker found.
 */

/** What the host knows of the connection; a lookup of null means the list could not be read (not checked). */
export interface CampaignLookups {
  /** A voice's id from its id or its name ("Ava"), or null when the connection has no such voice. */
  voice: ((given: string) => string | null) | null;
  /** Whether the connection has an avatar of this id. */
  avatar: ((avatarId: string) => boolean) | null;
}

export interface RowCheckOptions {
  target?: ProjectKind;
  plan?: PlanTier;
  placement?: PlacementConvention;
  /** Turns a value put into a link field into a link (a path beside the spreadsheet into a file: URL). */
  link?: (value: string) => string;
}

export interface FilledCampaignRow extends CampaignRow {
  /** The row's own project, voices resolved to their ids. */
  project: Project;
  /** The result's file, relative to the campaign's folder, made safe ("07 - Ana.mp4"). */
  fileName: string;
}

export interface CheckedRow extends FilledCampaignRow {
  /** Every reason the row cannot be sent; empty when it can. */
  problems: string[];
}

/** The video files a campaign saves. */
export const CAMPAIGN_FILE_EXTENSION = 'mp4';

/** Each row filled into the template (before the links are checked: their list comes from here). */
export function fillRows(
  template: CampaignTemplate,
  rows: readonly CampaignRow[],
  lookups: CampaignLookups,
  options: RowCheckOptions = {},
): (FilledCampaignRow & { problems: string[] })[] {
  const last = Math.max(0, ...rows.map((r) => r.row));
  return rows.map((row) => {
    const filled = fillTemplate(template, row.values, { row: rowNumberText(row.row, last), link: options.link });
    const problems = filled.missing.map((name) => `{{${name}}} is empty`);
    const { project, problems: lookupProblems } = resolveLookups(filled.project, lookups);
    problems.push(...lookupProblems);
    return { ...row, project, fileName: safeRelativeName(filled.fileName, CAMPAIGN_FILE_EXTENSION), problems };
  });
}

/**
 * The rows with every problem named: the fill's and the lookups' (fillRows), the scripts' limits, the
 * service's rules (validateProject), the links' reports, and output names two rows share.
 */
export function checkRows(
  filled: readonly (FilledCampaignRow & { problems: string[] })[],
  reports: ReadonlyMap<string, LinkReport>,
  options: RowCheckOptions = {},
): CheckedRow[] {
  const byName = new Map<string, NumberedRow[]>();
  for (const row of filled)
    byName.set(row.fileName.toLowerCase(), [...(byName.get(row.fileName.toLowerCase()) ?? []), row]);
  return filled.map((row) => {
    const problems = [...row.problems];
    const target = options.target ?? row.project.kind;
    problems.push(...scriptProblems(row.project));
    // The voiceovers of an avatar video are made by the campaign, row by row: not there yet is expected.
    const rules = validateProject(row.project, {
      target,
      purpose: 'submit',
      plan: options.plan,
      placement: options.placement,
    });
    for (const problem of rules) {
      if (problem.level !== 'error' || problem.code === 'voice-not-generated') continue;
      // An empty cell is already named once as such; the rule it then breaks says nothing more.
      if (
        row.problems.length > 0 &&
        (problem.code === 'voice-text-missing' || problem.code === 'voice-id-missing' || problem.code === 'url-invalid')
      )
        continue;
      problems.push(problem.message);
    }
    for (const problem of linkProblems(row.project, reports))
      if (problem.level === 'error') problems.push(problem.message);
    const sharing = (byName.get(row.fileName.toLowerCase()) ?? []).filter((other) => other.row !== row.row);
    if (sharing.length > 0)
      problems.push(
        `its file name "${row.fileName}" is also ${sharing.map((r) => rowLabel(r)).join(', ')}'s: make the name template tell them apart`,
      );
    return { ...row, problems: [...new Set(problems)] };
  });
}

/** Every link the rows send, each once: the link checker looks at each a single time for all rows. */
export function rowLinks(filled: readonly FilledCampaignRow[]): string[] {
  return [...new Set(filled.flatMap((row) => projectLinks(row.project).map((link) => link.url)))];
}

/** Voices given by name become their ids; unknown voices and avatars are named. */
function resolveLookups(project: Project, lookups: CampaignLookups): { project: Project; problems: string[] } {
  const problems: string[] = [];
  const voiceOf = (given: string, where: string): string => {
    if (!lookups.voice || given.trim() === '') return given;
    const id = lookups.voice(given);
    if (id === null) problems.push(`${where}: voice "${given}" is not one of this connection's voices`);
    return id ?? given;
  };
  const scenes = project.scenes.map((scene, i) => {
    const where = capitalise(sceneLabel(i, scene.id, scene.name));
    for (const element of scene.elements) {
      if (
        element.type === 'avatar' &&
        lookups.avatar &&
        effectiveAvatarFrom(element) === 2 &&
        element.avatarId &&
        !lookups.avatar(element.avatarId)
      ) {
        problems.push(`${where}: avatar "${element.avatarId}" is not one of this connection's avatars`);
      }
    }
    return {
      ...scene,
      voice:
        scene.voice?.kind === 'tts' ? { ...scene.voice, voiceId: voiceOf(scene.voice.voiceId, where) } : scene.voice,
      elements: scene.elements.map((e) =>
        e.type === 'audio' && e.voiceId ? { ...e, voiceId: voiceOf(e.voiceId, where) } : e,
      ),
    };
  });
  return { project: { ...project, scenes }, problems };
}

/** A script the speech service would refuse (too long, for one), by scene. */
function scriptProblems(project: Project): string[] {
  const problems: string[] = [];
  project.scenes.forEach((scene, i) => {
    if (scene.voice?.kind !== 'tts' || scene.voice.text.trim() === '' || scene.voice.voiceId.trim() === '') return;
    const problem = batchRowProblem({ text: scene.voice.text, voiceId: scene.voice.voiceId, rate: scene.voice.rate });
    if (problem)
      problems.push(`${capitalise(sceneLabel(i, scene.id, scene.name))}: the script cannot be spoken (${problem})`);
  });
  return problems;
}
