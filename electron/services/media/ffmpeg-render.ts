import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FfmpegCommand } from '../../common/composition/ffmpeg-args';
import { createProgressParser, type RenderProgress } from '../../common/composition/progress';
import { capitalise } from '../../common/composition/render-plan';
import type { SegmentedRender } from '../../common/composition/segmented-args';
import type { ProcessRunner } from './process';
import { runSplitRender, SplitPartError } from './split-render';

// Running a built ffmpeg command into its ".part" file, apart from planning what to render: here a
// failure is turned into a message naming the scene or element, and a cancel leaves no part file.

export class RenderError extends Error {
  override name = 'RenderError';
}

export function abortError(): Error {
  return new DOMException('The render was cancelled', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'AbortError';
}

/** What running a render needs: the process runner and the ffmpeg binary's resolver. */
export interface FfmpegRunDeps {
  runner: ProcessRunner;
  /** Resolves the ffmpeg binary (throws a MediaBinaryError naming every place looked). */
  ffmpeg: () => Promise<string>;
}

async function ffmpegFor(deps: FfmpegRunDeps, part: string): Promise<string> {
  const bin = await deps.ffmpeg().catch((error: Error) => {
    throw new RenderError(`Cannot render: ${error.message}`);
  });
  await mkdir(dirname(part), { recursive: true });
  return bin;
}

/** A render of several scenes split across cores (segmented-args.ts); the same file as `runFfmpeg` makes. */
export async function runSplitFfmpeg(
  deps: FfmpegRunDeps,
  split: SegmentedRender,
  command: FfmpegCommand,
  part: string,
  signal?: AbortSignal,
  onProgress?: (p: RenderProgress) => void,
): Promise<void> {
  const bin = await ffmpegFor(deps, part);
  try {
    const { aborted } = await runSplitRender(deps.runner, bin, split, command.durationMs, signal, onProgress);
    if (aborted || signal?.aborted) throw abortError();
  } catch (error) {
    await rm(part, { force: true });
    if (isAbortError(error) || signal?.aborted) throw abortError();
    if (error instanceof SplitPartError) throw new RenderError(explainFailure(error.result.stderr, error.command));
    throw new RenderError(`Cannot start ffmpeg (${bin}): ${(error as Error).message}`);
  }
  onProgress?.({ fraction: 1, outTimeMs: command.durationMs, frame: null, speed: null, done: true });
}

export async function runFfmpeg(
  deps: FfmpegRunDeps,
  command: FfmpegCommand,
  part: string,
  signal?: AbortSignal,
  onProgress?: (p: RenderProgress) => void,
): Promise<void> {
  const bin = await ffmpegFor(deps, part);
  const parser = createProgressParser(command.durationMs);
  let result;
  try {
    result = await deps.runner.run(bin, command.args, {
      signal,
      onStdoutLine: (line) => {
        const report = parser.push(line);
        if (report) onProgress?.(report);
      },
    });
  } catch (error) {
    await rm(part, { force: true });
    throw new RenderError(`Cannot start ffmpeg (${bin}): ${(error as Error).message}`);
  }
  if (result.aborted || signal?.aborted) {
    await rm(part, { force: true });
    throw abortError();
  }
  if (result.code !== 0) {
    await rm(part, { force: true });
    throw new RenderError(explainFailure(result.stderr, command));
  }
}

/** ffmpeg's last error line, attributed to the scene/element whose input it names when it does. */
function explainFailure(stderr: string, command: FfmpegCommand): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  const last = lines.at(-1) ?? 'ffmpeg failed without a message';
  const inputs = command.args.flatMap((arg, i) => (command.args[i - 1] === '-i' ? [arg] : []));
  const culprit = inputs.findIndex((path) => stderr.includes(path));
  const who = culprit >= 0 ? `${capitalise(command.inputLabels[culprit])}: ` : '';
  return `${who}ffmpeg could not render the preview: ${last}`;
}
