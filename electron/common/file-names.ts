/**
 * File names for saved results: templates filled from a job's fields, made safe on Windows, macOS and
 * Linux, kept inside the chosen folder, and never taking a name that is already used. Pure: the caller
 * injects the probe that knows what exists on disk or is being downloaded.
 */

// `name` is a batch row's own name (its name column).
export const NAME_FIELDS = ['project', 'scene', 'kind', 'voice', 'text', 'date', 'id', 'row', 'name'] as const;
export type NameField = (typeof NAME_FIELDS)[number];
export type NameFields = Partial<Record<NameField, string | number | null>>;

export const DEFAULT_NAME_TEMPLATE = '{project|kind} - {text|id} - {date}';

/** Longest name in bytes (UTF-8) we write: 255 is the common file-system limit, minus room for " (99).part". */
export const MAX_NAME_BYTES = 200;
const MAX_FIELD_CHARS = 60;

// Windows refuses these as a name's stem whatever the extension ("CON.mp4" is the console too).
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// Forbidden on Windows (and "/" everywhere), plus control characters.
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

export class TemplateError extends Error {}

/**
 * What a field says when it has no value and nothing after a "|" stands in: a job made outside a
 * project (the command line, a batch, a tool) is filed under "No project" rather than a gap.
 */
export const FIELD_FALLBACKS: Partial<Record<NameField, string>> = { project: 'No project' };

/** Checks a template's syntax and field names; answers the message to show, or null when it is fine. */
export function checkTemplate(template: string): string | null {
  try {
    renderTemplate(template, {});
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Fills `{field}` and `{first|second|…}` (the first field with a value wins). A field with no value
 * gives its fallback (FIELD_FALLBACKS) when it is the last one named, else leaves its place empty; separators around the gap are tidied by the sanitiser. "/" makes subfolders.
 */
export function renderTemplate(template: string, fields: NameFields): string {
  if (template.trim() === '') throw new TemplateError('The name template is empty.');
  if (template.length > 500) throw new TemplateError('The name template is longer than 500 characters.');
  return template.replace(/\{([^{}]*)\}|[{}]/g, (whole, inner: string | undefined) => {
    if (inner === undefined) throw new TemplateError(`The name template has an unmatched "${whole}".`);
    const names = inner.split('|').map((name) => name.trim());
    for (const name of names) {
      if (!(NAME_FIELDS as readonly string[]).includes(name)) {
        throw new TemplateError(
          `The name template uses {${name}}; the fields are ${NAME_FIELDS.map((f) => `{${f}}`).join(' ')}.`,
        );
      }
    }
    for (const name of names) {
      const value = fields[name as NameField];
      if (value === null || value === undefined) continue;
      const text = String(value).replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      // A field never adds folders: its slashes become dashes before the template's own "/" count.
      return truncateChars(text.replace(/[/\\]/g, '-'), MAX_FIELD_CHARS);
    }
    return FIELD_FALLBACKS[names[names.length - 1] as NameField] ?? '';
  });
}

function truncateChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
function truncateBytes(text: string, max: number): string {
  if (utf8Length(text) <= max) return text;
  let out = '';
  for (const char of text) {
    if (utf8Length(out + char) > max) break;
    out += char;
  }
  return out;
}

/**
 * One path segment made safe everywhere: forbidden and control characters become "_", separators
 * left dangling by empty fields are tidied, trailing dots and spaces go (Windows drops them), reserved
 * device names get a "_" prefix, and the length is capped in bytes. Never empty, never "." or "..".
 */
export function sanitizeSegment(raw: string, maxBytes = MAX_NAME_BYTES): string {
  let name = raw.normalize('NFC').replace(FORBIDDEN, '_');
  name = name
    .replace(/\s+/g, ' ')
    .replace(/(\s*[-_·]\s*){2,}/g, ' - ') // "a -  - b" from an empty field
    .replace(/^[\s\-_·.]+|[\s\-_·]+$/g, '');
  name = truncateBytes(name, maxBytes).replace(/[. ]+$/, '');
  if (name === '' || name === '.' || name === '..') name = 'untitled';
  const stem = name.split('.')[0];
  if (RESERVED.test(stem.trim())) name = `_${name}`;
  return name;
}

/**
 * A rendered template → a relative path of safe segments ("/"-separated) that cannot leave the folder:
 * empty, "." and ".." segments are dropped, at most 4 levels deep. The extension (".mp4") is added
 * after the byte cap so it is never cut off.
 */
export function safeRelativeName(rendered: string, extension: string): string {
  const ext = sanitizeExtension(extension);
  const parts = rendered
    .split(/[/\\]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  const folders = parts
    .slice(0, -1)
    .slice(0, 3)
    .map((part) => sanitizeSegment(part, 100));
  const last = parts.at(-1) ?? '';
  const stem = sanitizeSegment(last, MAX_NAME_BYTES - utf8Length(ext));
  return [...folders, `${stem}${ext}`].join('/');
}

function sanitizeExtension(extension: string): string {
  const clean = extension
    .replace(/^\.+/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 8);
  return clean ? `.${clean}` : '';
}

/** "clip.mp4" → "clip (2).mp4"; folders are kept. */
export function numberedName(relative: string, n: number): string {
  if (n <= 1) return relative;
  const slash = relative.lastIndexOf('/');
  const folder = relative.slice(0, slash + 1);
  const file = relative.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const ext = dot > 0 ? file.slice(dot) : '';
  return `${folder}${stem} (${n})${ext}`;
}

/**
 * The first free name: `relative`, then "name (2)", "name (3)", … `isTaken` is asked about each
 * candidate (the caller counts files on disk, their `.part` files and downloads in flight) and may be
 * asynchronous. Never answers a taken name: after 9999 tries it throws.
 */
export async function pickFreeName(
  relative: string,
  isTaken: (candidate: string) => boolean | Promise<boolean>,
): Promise<string> {
  for (let n = 1; n < 10_000; n += 1) {
    const candidate = numberedName(relative, n);
    if (!(await isTaken(candidate))) return candidate;
  }
  throw new Error(`No free name for ${relative}: 9999 numbered copies exist.`);
}

/** The date field as it appears in names: 2026-11-22. */
export function nameDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
