import type { Project } from './document';
import { capitalise, elementLabel, sceneLabel } from './render-plan';
import { itemScenes } from './scene-parts';

/**
 * A failed job's own reasons, in plain words and pointed at the scene and element they are about.
 * The service writes them into the record (`error_reasons`, `faceswap_fail_reason`,
 * `video_fail_reason`) with a path into the request body ("data[0].elements[3].url could not be
 * downloaded: HTTP 404"); the body as sent says which element that was.
 */
export interface FailureReason {
  /** "Scene 1 (intro), element e3 (logo): the service could not download the image link (HTTP 404)." */
  text: string;
  /** The service's words, unchanged. */
  raw: string;
  sceneIndex: number | null;
  sceneId: string | null;
  elementId: string | null;
  url: string | null;
}

const REASON_FIELDS = [
  'error_reasons',
  'faceswap_fail_reason',
  'video_fail_reason',
  'fail_reason',
  'error_msg',
] as const;
// data[0].elements[3].url | data[1].voice.voice_url | elements[2].url (talking avatar)
const POINTER = /(?:data\[(\d+)\]\.)?(?:elements\[(\d+)\](?:\.(\w+))?|voice\.(\w+))/;

/** Every distinct reason the service gave in its answer, in the order it gave them. */
export function serviceReasons(answer: unknown): string[] {
  if (!answer || typeof answer !== 'object') return [];
  const record = answer as Record<string, unknown>;
  const found: string[] = [];
  for (const field of REASON_FIELDS) {
    const value = record[field];
    for (const item of Array.isArray(value) ? value : [value]) {
      const text =
        typeof item === 'string'
          ? item.trim()
          : item && typeof item === 'object'
            ? String(
                (item as { message?: unknown; reason?: unknown }).message ??
                  (item as { reason?: unknown }).reason ??
                  '',
              )
            : '';
      if (text && !found.includes(text)) found.push(text);
    }
  }
  return found;
}

export interface FailedJob {
  answer: unknown;
  request: unknown;
  /** The refusal of the create call itself (its message may carry the same kind of path). */
  error?: { message: string } | null;
}

/** The reasons of a failed job explained; `project` (when it is at hand) names the scene and element. */
export function explainFailure(job: FailedJob, project?: Project | null): FailureReason[] {
  const reasons = serviceReasons(job.answer);
  const refusal = job.error?.message;
  if (refusal && POINTER.test(refusal) && !reasons.some((r) => refusal.includes(r))) reasons.push(refusal);
  return reasons.map((raw) => explainOne(raw, job.request, project ?? null));
}

function explainOne(raw: string, request: unknown, project: Project | null): FailureReason {
  const match = POINTER.exec(raw);
  const plain: FailureReason = {
    text: `The service says: ${raw}`,
    raw,
    sceneIndex: null,
    sceneId: null,
    elementId: null,
    url: null,
  };
  if (!match) return plain;
  const [pointer, dataIndex, elementIndex, field, voiceField] = match;
  const body = (request ?? {}) as BodyPart & { data?: BodyPart[] };
  const itemIndex = dataIndex !== undefined ? Number(dataIndex) : 0;
  const sceneBody: BodyPart | undefined = dataIndex !== undefined ? body.data?.[itemIndex] : body;
  // A scene cut for elements timed in it is several items (scene-parts.ts): name the scene the item is of.
  const cut = project?.kind === 'avatar-video' && dataIndex !== undefined ? itemScenes(project.scenes) : [];
  const sceneIndex = cut[itemIndex] ?? itemIndex;
  const scene = project?.scenes[sceneIndex] ?? null;
  const sceneText = capitalise(sceneLabel(sceneIndex, scene?.id ?? '', scene?.name)).replace(/ \(\)$/, '');
  const cause = describeCause(raw.slice(match.index + pointer.length));

  if (voiceField !== undefined) {
    const url = typeof sceneBody?.voice?.[voiceField] === 'string' ? (sceneBody.voice[voiceField] as string) : null;
    return {
      raw,
      text: `${sceneText}: the service ${cause('the voice audio')}`,
      sceneIndex,
      sceneId: scene?.id ?? null,
      elementId: null,
      url,
    };
  }
  const sent = sceneBody?.elements?.[Number(elementIndex)];
  const url = typeof sent?.url === 'string' ? sent.url : null;
  const element =
    scene?.elements.find((e) => (sent?.id !== undefined && e.id === sent.id) || (url !== null && e.url === url)) ??
    null;
  const elementId = element?.id ?? (typeof sent?.id === 'string' ? sent.id : null);
  const where = elementId
    ? elementLabel(sceneText, elementId, element?.name ?? fileName(url))
    : `${sceneText}, element ${Number(elementIndex) + 1}`;
  const what = `the ${typeof sent?.type === 'string' ? sent.type : 'element'}${field === 'url' || field === undefined ? ' link' : `'s ${field}`}`;
  return { raw, text: `${where}: the service ${cause(what)}`, sceneIndex, sceneId: scene?.id ?? null, elementId, url };
}

interface BodyElement {
  id?: string;
  type?: string;
  url?: string;
}

/** One scene of an avatar-video body, or a whole talking-avatar body. */
interface BodyPart {
  elements?: BodyElement[];
  voice?: Record<string, unknown>;
}

/** "could not be downloaded: HTTP 404" → (what) => "could not download the image link (HTTP 404)." */
function describeCause(rest: string): (what: string) => string {
  const text = rest.replace(/^[\s:,-]+/, '').trim();
  const download = /^could not be downloaded:?\s*(.*)$/i.exec(text);
  if (download)
    return (what) => `could not download ${what}${download[1] ? ` (${download[1].replace(/\.$/, '')})` : ''}.`;
  return (what) => `could not use ${what}: ${text || 'no reason given'}`;
}

function fileName(url: string | null): string | undefined {
  if (!url) return undefined;
  const last = decodeURIComponent(url.split(/[?#]/)[0].split('/').pop() ?? '');
  return last || undefined;
}
