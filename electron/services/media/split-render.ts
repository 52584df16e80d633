import { rm, writeFile } from 'node:fs/promises';
import type { FfmpegCommand } from '../../common/composition/ffmpeg-args';
import { createProgressParser, type RenderProgress } from '../../common/composition/progress';
import type { SegmentedRender } from '../../common/composition/segmented-args';
import type { ProcessRunner, RunResult } from './process';

/** Why one ffmpeg of a render failed: its stderr and its command (for naming the element at fault). */
export class SplitPartError extends Error {
  constructor(
    readonly result: RunResult,
    readonly command: FfmpegCommand,
  ) {
    super('an ffmpeg of the render failed');
  }
}

/**
 * Runs a split render (segmented-args.ts): the picture parts and the sound at once, then the join.
 * The first part to fail stops the others. Progress is the picture time made across every part, so it
 * moves as fast as the parts together do. The parts' files are removed whatever happens; the output
 * (`split.join`'s last argument) is left to the caller.
 * Throws SplitPartError for a failed ffmpeg, or the abort reason.
 */
export async function runSplitRender(
  runner: ProcessRunner,
  bin: string,
  split: SegmentedRender,
  totalMs: number,
  signal?: AbortSignal,
  onProgress?: (progress: RenderProgress) => void,
): Promise<{ aborted: boolean }> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const made = split.videos.map(() => 0);
  const report = (): void => {
    const outTimeMs = made.reduce((a, b) => a + b, 0);
    onProgress?.({
      outTimeMs,
      fraction: totalMs > 0 ? Math.min(0.99, outTimeMs / totalMs) : 0,
      frame: null,
      speed: null,
      done: false,
    });
  };
  const runOne = async (command: FfmpegCommand, onLine?: (line: string) => void): Promise<void> => {
    const result = await runner.run(bin, command.args, { signal: stop.signal, onStdoutLine: onLine });
    if (result.aborted || stop.signal.aborted) return;
    if (result.code !== 0) {
      const failure = new SplitPartError(result, command);
      stop.abort(failure);
      throw failure;
    }
  };
  try {
    const pictures = split.videos.map((command, i) => {
      const parser = createProgressParser(command.durationMs);
      return runOne(command, (line) => {
        const progress = parser.push(line);
        if (!progress) return;
        made[i] = Math.min(command.durationMs, progress.outTimeMs);
        report();
      });
    });
    // Every run settles before the files go, whichever failed first.
    const settled = await Promise.allSettled([...pictures, runOne(split.audio)]);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (stop.signal.aborted) return { aborted: true };
    await writeFile(split.listPath, split.listText);
    await runOne(split.join);
    return { aborted: stop.signal.aborted };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(split.temporary.map((path) => rm(path, { force: true })));
  }
}
