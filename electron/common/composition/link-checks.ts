import { z } from 'zod';
import type { Project, Scene } from './document';
import { mediaRefusal, type MediaField } from './media-fields';
import { MEDIA_FORMATS } from './media-format';
import { capitalise, elementLabel, sceneLabel } from './render-plan';
import { effectiveAvatarFrom, urlKind, voiceAudioUrl } from './rules';
import type { Problem } from './validate';
import { followsVoice, sceneLengthFor, VOICE_OVERRUN_TOLERANCE_MS } from './voice-follow';
import { shownSpan } from './timing-span';

/** A clip this much shorter than its time on screen is not worth a word (a frame or two at 25 fps). */
const CLIP_SHORT_TOLERANCE_MS = 80;

export { sceneLengthFor, VOICE_OVERRUN_TOLERANCE_MS };

/**
 * Pre-flight of a project's media links: which links a project sends (projectLinks), what the host
 * found at each (LinkReport, made by services/media/link-checker.ts), and the problems that follow
 * (linkProblems). A broken or wrong link is refused or wasted by the paid job, so these are errors.
 */
export const LinkReport = z.object({
  url: z.string(),
  /** Reachable and really media (a picture, a video or a sound). */
  ok: z.boolean(),
  /** Why not, in plain words ("HTTP 404 Not Found", "not a picture, video or sound"). */
  reason: z.string().optional(),
  kind: z.enum(['image', 'video', 'audio']).nullable(),
  /** What the file is from its content (media-format.ts); absent in reports made before it was known. */
  format: z.enum(MEDIA_FORMATS).nullable().optional(),
  durationMs: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  /** When the host last looked (ms since the epoch). */
  checkedAt: z.number(),
});
export type LinkReport = z.infer<typeof LinkReport>;

/** What a link must be: an avatar may be a picture or a video, a voice must be a sound. */
export type LinkExpectation = 'image' | 'video' | 'audio' | 'image-or-video';

export interface ProjectLink {
  url: string;
  expects: LinkExpectation;
  sceneIndex: number;
  sceneId: string;
  elementId?: string;
  /** "Scene 1 (intro), element e3 (logo)" */
  where: string;
  /** "the image", "the voice audio" */
  what: string;
}

/** Every link the project's request body carries (http(s), and local files the studio will upload). */
export function projectLinks(project: Project): ProjectLink[] {
  const links: ProjectLink[] = [];
  const sendable = (url: string): boolean => urlKind(url) === 'remote' || url.trim().startsWith('file:');
  project.scenes.forEach((scene, sceneIndex) => {
    const sceneText = sceneLabel(sceneIndex, scene.id, scene.name);
    const base = { sceneIndex, sceneId: scene.id };
    const voice = scene.voice ? voiceAudioUrl(scene.voice) : null;
    if (voice && sendable(voice))
      links.push({
        ...base,
        url: voice.trim(),
        expects: 'audio',
        where: capitalise(sceneText),
        what: 'the voice audio',
      });
    for (const element of scene.elements) {
      // A text element's picture is drawn and uploaded by the studio at submit: no link of the user's.
      if (element.type === 'text' || !sendable(element.url)) continue;
      // An official avatar is named by its id; its picture link is the service's own. An avatar chosen from a
      // catalogue is sent with its link in the sending connection's catalogue (avatar-links.ts), not this one.
      if (element.type === 'avatar' && (effectiveAvatarFrom(element) === 2 || element.urlFrom === 'catalogue'))
        continue;
      const expects: LinkExpectation = element.type === 'avatar' ? 'image-or-video' : element.type;
      links.push({
        ...base,
        elementId: element.id,
        url: element.url.trim(),
        expects,
        where: capitalise(elementLabel(sceneText, element.id, element.name)),
        what: `the ${element.type}`,
      });
    }
  });
  return links;
}

/** The distinct links to check, in project order. */
export function linkUrls(project: Project): string[] {
  return [...new Set(projectLinks(project).map((l) => l.url))];
}

/** A problem found at a link, with the link itself (the command line prints it). */
export interface LinkProblem extends Problem {
  url: string;
}

/**
 * Problems from the host's reports: broken links and links of the wrong kind (errors), and a voice
 * longer than its scene (the service cuts the rest). Links without a report yet give nothing.
 */
export function linkProblems(project: Project, reports: ReadonlyMap<string, LinkReport>): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const link of projectLinks(project)) {
    const report = reports.get(link.url);
    if (!report) continue;
    const at = {
      url: link.url,
      sceneIndex: link.sceneIndex,
      sceneId: link.sceneId,
      ...(link.elementId ? { elementId: link.elementId } : {}),
    };
    if (!report.ok) {
      problems.push({
        level: 'error',
        code: 'link-broken',
        message: `${link.where}: ${link.what} link is broken (${report.reason ?? 'unreachable'}).`,
        ...at,
      });
      continue;
    }
    if (report.kind && !fits(link.expects, report.kind)) {
      problems.push({
        level: 'error',
        code: 'link-wrong-kind',
        message: `${link.where}: ${link.what} link is ${article(report.kind)}, not ${expected(link.expects)}.`,
        ...at,
      });
      continue;
    }
    const refusal =
      report.kind && report.format
        ? mediaRefusal(FIELD_OF[link.expects], { kind: report.kind, format: report.format })
        : null;
    if (refusal) {
      problems.push({ level: 'error', code: 'link-wrong-format', message: `${link.where}: ${refusal}`, ...at });
      continue;
    }
    const scene = project.scenes[link.sceneIndex];
    if (
      link.expects === 'audio' &&
      !link.elementId &&
      // A scene that follows its voice takes the voice's length: nothing is cut.
      !followsVoice(project, scene) &&
      report.durationMs !== null &&
      report.durationMs > scene.durationMs + VOICE_OVERRUN_TOLERANCE_MS
    ) {
      problems.push({
        level: 'warning',
        code: 'voice-too-long',
        message: `${link.where}: the voice lasts ${seconds(report.durationMs)} s but the scene ${seconds(scene.durationMs)} s; the last ${seconds(report.durationMs - scene.durationMs)} s would be cut.`,
        ...at,
      });
    }
    const shortBy = clipShortBy(link, scene, report);
    if (shortBy !== null)
      problems.push({
        level: 'warning',
        code: 'clip-shorter',
        message: `${link.where}: the clip lasts ${seconds(report.durationMs!)} s but is on screen for ${seconds(report.durationMs! + shortBy)} s; it stands still on its last frame for the last ${seconds(shortBy)} s. Shorten its time on screen or the scene, or use a longer clip.`,
        ...at,
      });
  }
  return problems;
}

/**
 * How much longer a video element is on screen than its clip plays (ms), when that is more than a
 * frame or two: the clip then holds its last frame, which a user never asked for. Null otherwise.
 */
function clipShortBy(link: ProjectLink, scene: Scene, report: LinkReport): number | null {
  if (link.expects !== 'video' || !link.elementId || report.kind !== 'video' || report.durationMs === null) return null;
  const element = scene.elements.find((e) => e.id === link.elementId);
  if (!element) return null;
  const { from, to } = shownSpan(element, scene);
  const short = to - from - report.durationMs;
  return short > CLIP_SHORT_TOLERANCE_MS ? short : null;
}

/** The voice's length for a scene, when its link has been checked. */
export function voiceDurationMs(
  project: Project,
  sceneId: string,
  reports: ReadonlyMap<string, LinkReport>,
): number | null {
  const scene = project.scenes.find((s) => s.id === sceneId);
  const url = scene?.voice ? voiceAudioUrl(scene.voice) : null;
  const report = url ? reports.get(url.trim()) : undefined;
  return report?.ok && report.kind === 'audio' ? report.durationMs : null;
}

/** The service's field each link fills (media-fields.ts holds what each takes). */
const FIELD_OF: Record<LinkExpectation, MediaField> = {
  image: 'element-image',
  video: 'element-video',
  audio: 'voice-audio',
  'image-or-video': 'avatar-media',
};

function fits(expects: LinkExpectation, kind: 'image' | 'video' | 'audio'): boolean {
  if (expects === 'image-or-video') return kind === 'image' || kind === 'video';
  return kind === expects;
}

function article(kind: 'image' | 'video' | 'audio'): string {
  return kind === 'image' ? 'a picture' : kind === 'video' ? 'a video' : 'a sound';
}

function expected(expects: LinkExpectation): string {
  return expects === 'image-or-video' ? 'a picture or a video' : article(expects);
}

function seconds(ms: number): string {
  return (Math.round(ms / 100) / 10).toFixed(1);
}

/**
 * Scenes made as long as their voices (those whose voice length is known): every scene, or only the
 * ones named. Returns the same project when nothing changes.
 */
export function fitScenesToVoices(
  project: Project,
  reports: ReadonlyMap<string, LinkReport>,
  sceneIds?: readonly string[],
): Project {
  let changed = false;
  const scenes = project.scenes.map((scene) => {
    if (sceneIds && !sceneIds.includes(scene.id)) return scene;
    const voiceMs = voiceDurationMs(project, scene.id, reports);
    if (voiceMs === null || sceneLengthFor(voiceMs) === scene.durationMs) return scene;
    changed = true;
    return { ...scene, durationMs: sceneLengthFor(voiceMs) };
  });
  return changed ? { ...project, scenes } : project;
}
