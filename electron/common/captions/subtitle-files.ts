import type { Cue } from './caption-timing';

/** Cues as a SubRip (.srt) file: numbered blocks, times as 00:00:01,250. */
export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, i) => `${i + 1}\n${stamp(cue.startMs, ',')} --> ${stamp(cue.endMs, ',')}\n${oneBlock(cue.text)}\n`)
    .join('\n');
}

/** Cues as a WebVTT (.vtt) file: the header, then blocks with times as 00:00:01.250. */
export function toWebVtt(cues: readonly Cue[]): string {
  const blocks = cues.map(
    (cue) => `${stamp(cue.startMs, '.')} --> ${stamp(cue.endMs, '.')}\n${oneBlock(cue.text).replace(/-->/g, '→')}\n`,
  );
  return ['WEBVTT\n', ...blocks].join('\n');
}

function stamp(ms: number, separator: ',' | '.'): string {
  const whole = Math.max(0, Math.round(ms));
  const pad = (v: number, n = 2): string => String(v).padStart(n, '0');
  const h = Math.floor(whole / 3_600_000);
  const m = Math.floor((whole % 3_600_000) / 60_000);
  const s = Math.floor((whole % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(whole % 1000, 3)}`;
}

/** A blank line ends a cue in both formats, so a cue's own text never holds one. */
function oneBlock(text: string): string {
  return text.replace(/\r?\n\s*\r?\n/g, '\n').trim();
}

/**
 * Cues from a SubRip file as editors write them (BOM, CRLF, numbered or not, "," or "." before the
 * milliseconds, tags such as <i> left in the words). A block whose times cannot be read is named.
 */
export function parseSrt(text: string): Cue[] {
  const blocks = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n\s*\n/);
  const cues: Cue[] = [];
  blocks.forEach((block, i) => {
    if (block.trim() === '') return;
    const lines = block.split('\n');
    const timing = lines.findIndex((l) => l.includes('-->'));
    const match =
      timing >= 0
        ? /(\d+):(\d{2}):(\d{2})[,.](\d{1,3})\s*-->\s*(\d+):(\d{2}):(\d{2})[,.](\d{1,3})/.exec(lines[timing])
        : null;
    if (!match) throw new Error(`Caption block ${i + 1} has no times like 00:00:01,250 --> 00:00:02,000.`);
    const ms = (h: string, m: string, s: string, f: string): number =>
      ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f.padEnd(3, '0'));
    const startMs = ms(match[1], match[2], match[3], match[4]);
    const endMs = ms(match[5], match[6], match[7], match[8]);
    if (endMs <= startMs) throw new Error(`Caption block ${i + 1} ends (${lines[timing].trim()}) before it starts.`);
    cues.push({
      text: lines
        .slice(timing + 1)
        .join('\n')
        .trim(),
      startMs,
      endMs,
    });
  });
  return cues;
}
