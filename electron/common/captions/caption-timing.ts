/**
 * Captions from a script and its voice: the script is cut into phrases, the voice's pauses (ffmpeg's
 * silencedetect) say where speech is, and each phrase is given the stretch of speech its share of the
 * letters falls on, its edges moved to the nearest pause. Pure: the caller runs ffmpeg.
 */
export interface Span {
  startMs: number;
  endMs: number;
}

export interface Cue extends Span {
  text: string;
}

/** Longest phrase in words before it is cut at a comma or, failing that, in the middle. */
const MAX_WORDS = 8;
/** A cue edge moves to a pause this close to where the letters put it. */
const SNAP_MS = 600;

/** The script's phrases: sentences, then clauses (commas, semicolons), then halves of long ones. */
export function splitPhrases(script: string): string[] {
  const sentences =
    script
      .replace(/\s+/g, ' ')
      .trim()
      .match(/[^.!?…]+[.!?…]*["”’)]*/g) ?? [];
  return sentences.flatMap((sentence) => cut(sentence.trim())).filter((p) => p.length > 0);
}

function cut(phrase: string): string[] {
  const words = phrase.split(' ');
  if (words.length <= MAX_WORDS) return [phrase];
  const clauses = phrase.split(/(?<=[,;:])\s+/);
  if (clauses.length > 1) return clauses.flatMap(cut);
  const half = Math.ceil(words.length / 2);
  return [...cut(words.slice(0, half).join(' ')), ...cut(words.slice(half).join(' '))];
}

/** The silences ffmpeg's silencedetect printed, as log lines or ametadata lines (one still open at the end closes there). */
export function parseSilences(output: string, durationMs: number): Span[] {
  const spans: Span[] = [];
  let open: number | null = null;
  for (const match of output.matchAll(/silence_(start|end)[:=] ?(-?[\d.]+)/g)) {
    const ms = Math.max(0, Math.round(Number(match[2]) * 1000));
    if (match[1] === 'start') open = ms;
    else if (open !== null) {
      spans.push({ startMs: open, endMs: ms });
      open = null;
    }
  }
  if (open !== null) spans.push({ startMs: open, endMs: durationMs });
  return spans;
}

/** Where the voice speaks: the complement of its silences within its length. */
export function speechSpans(silences: readonly Span[], durationMs: number): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const silence of [...silences].sort((a, b) => a.startMs - b.startMs)) {
    if (silence.startMs > at) spans.push({ startMs: at, endMs: silence.startMs });
    at = Math.max(at, silence.endMs);
  }
  if (at < durationMs) spans.push({ startMs: at, endMs: durationMs });
  return spans;
}

/**
 * Times each phrase on the speech: phrases share the spoken time by their letters, then each boundary
 * between two phrases moves into the nearest pause (a phrase starts where speech resumes and the one
 * before ends where it stopped) when one lies within SNAP_MS.
 */
export function timeCaptions(phrases: readonly string[], silences: readonly Span[], durationMs: number): Cue[] {
  const speech = speechSpans(silences, durationMs);
  const spoken = speech.reduce((sum, s) => sum + s.endMs - s.startMs, 0);
  if (phrases.length === 0 || spoken <= 0) return [];
  const letters = phrases.map((p) => p.replace(/\s/g, '').length || 1);
  const total = letters.reduce((a, b) => a + b, 0);
  // Spoken time → clock time, skipping the pauses.
  const clock = (spokenMs: number): number => {
    let left = spokenMs;
    for (const s of speech) {
      const length = s.endMs - s.startMs;
      if (left <= length) return s.startMs + left;
      left -= length;
    }
    return speech[speech.length - 1].endMs;
  };
  let seen = 0;
  const edges = letters.map((n) => {
    seen += n;
    return clock((spoken * seen) / total);
  });
  const gaps = speechGaps(speech);
  const cues: Cue[] = [];
  let start = speech[0].startMs;
  phrases.forEach((text, i) => {
    let end = edges[i];
    let next = end;
    if (i < phrases.length - 1) {
      const gap = nearest(gaps, end);
      if (gap && Math.min(Math.abs(gap.startMs - end), Math.abs(gap.endMs - end)) <= SNAP_MS) {
        end = gap.startMs;
        next = gap.endMs;
      }
    } else end = speech[speech.length - 1].endMs;
    cues.push({ text, startMs: start, endMs: Math.max(end, start + 1) });
    start = next;
  });
  return cues;
}

function speechGaps(speech: readonly Span[]): Span[] {
  return speech.slice(1).map((s, i) => ({ startMs: speech[i].endMs, endMs: s.startMs }));
}

function nearest(gaps: readonly Span[], ms: number): Span | null {
  let best: Span | null = null;
  let distance = Infinity;
  for (const gap of gaps) {
    const d = ms < gap.startMs ? gap.startMs - ms : ms > gap.endMs ? ms - gap.endMs : 0;
    if (d < distance) {
      best = gap;
      distance = d;
    }
  }
  return best;
}
