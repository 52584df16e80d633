import type { Cue } from './caption-timing';

/** Cues as a SubRip (.srt) file: numbered blocks, times as 00:00:01,250. */
export function toSrt(cues: readonly Cue[]): string {
  return cues.map((cue, i) => `${i + 1}\n${stamp(cue.startMs, ',')} --> ${stamp(cue.endMs, ',')}\n${oneBlock(cue.text)}\n`).join('\n');
}

/** Cues as a WebVTT (.vtt) file: the header, then blocks with times as 00:00:01.250. */
export function toWebVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((cue) => `${stamp(cue.startMs, '.')} --> ${stamp(cue.endMs, '.')}\n${oneBlock(cue.text).replace(/-->/g, '→')}\n`);
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
