/**
 * Reads ffmpeg's `-progress pipe:1` output: blocks of key=value lines, each ending with
 * `progress=continue` or `progress=end`. Feed it lines; it returns a report at the end of each block.
 */
export interface RenderProgress {
  /** Media time written so far. */
  outTimeMs: number;
  /** 0..1 of the total duration (1 once ffmpeg reports the end). */
  fraction: number;
  frame: number | null;
  /** Multiple of real time, as ffmpeg estimates it ("4.2x" → 4.2). */
  speed: number | null;
  done: boolean;
}

export interface ProgressParser {
  push(line: string): RenderProgress | null;
}

export function createProgressParser(totalMs: number): ProgressParser {
  let block = new Map<string, string>();
  let lastOutMs = 0;
  return {
    push(line: string): RenderProgress | null {
      const eq = line.indexOf('=');
      if (eq <= 0) return null;
      const key = line.slice(0, eq).trim();
      const value = line.slice(eq + 1).trim();
      if (key !== 'progress') {
        block.set(key, value);
        return null;
      }
      const done = value === 'end';
      const outMs = readOutTime(block);
      if (outMs !== null) lastOutMs = Math.max(lastOutMs, outMs);
      const report: RenderProgress = {
        outTimeMs: lastOutMs,
        fraction: done ? 1 : totalMs > 0 ? Math.min(1, lastOutMs / totalMs) : 0,
        frame: toNumber(block.get('frame')),
        speed: toNumber(block.get('speed')?.replace(/x$/, '')),
        done,
      };
      block = new Map();
      return report;
    },
  };
}

function readOutTime(block: Map<string, string>): number | null {
  // out_time_us and (misnamed, also microseconds) out_time_ms; N/A before the first frame.
  const micro = toNumber(block.get('out_time_us')) ?? toNumber(block.get('out_time_ms'));
  if (micro !== null && micro >= 0) return Math.round(micro / 1000);
  const clock = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(block.get('out_time') ?? '');
  if (clock) return Math.round((Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3])) * 1000);
  return null;
}

function toNumber(value: string | undefined): number | null {
  if (value === undefined || value === '' || value === 'N/A') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
