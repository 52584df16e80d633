import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { Cue } from '../../common/captions/caption-timing';
import type { CaptionSettings } from '../../common/captions/caption-track';
import { drawCue } from '../../common/captions/caption-pictures';
import { createProgressParser } from '../../common/composition/progress';
import type { TextRasteriser } from '../../common/text/text-rasteriser';
import type { MediaProber } from './probe';
import type { ProcessRunner } from './process';

/**
 * Captions burned into a local copy of a video: each caption is drawn by the one text rasteriser at
 * the video's own size (the pictures the preview shows) and laid over the frames while it is spoken,
 * with ffmpeg. The copy is written beside the original under a new name, as a part file renamed when
 * complete; the original is only read, and a failed or stopped burn leaves nothing behind.
 */
export interface CaptionBurnDeps {
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
  prober: Pick<MediaProber, 'probe'>;
  rasteriser: TextRasteriser;
}

export interface BurnRequest {
  input: string;
  cues: readonly Cue[];
  settings: CaptionSettings;
  signal?: AbortSignal;
  /** 0..1 as ffmpeg writes. */
  onProgress?: (fraction: number) => void;
}

export class CaptionBurnError extends Error {
  override name = 'CaptionBurnError';
}

/** "<name> (captions).mp4" beside the original, numbered when that name is taken: never the original's own name. */
export function burnedName(input: string, taken: (path: string) => boolean = existsSync): string {
  const stem = basename(input, extname(input));
  for (let n = 1; ; n += 1) {
    const candidate = join(dirname(input), `${stem} (captions${n === 1 ? '' : ` ${n}`}).mp4`);
    if (candidate !== input && !taken(candidate) && !taken(`${candidate}.part`)) return candidate;
  }
}

export async function burnCaptions(deps: CaptionBurnDeps, request: BurnRequest): Promise<string> {
  const cues = request.cues.filter((c) => c.text.trim() !== '');
  if (cues.length === 0)
    throw new CaptionBurnError('There are no captions to burn in: make or type some on the timeline first.');
  const info = await deps.prober.probe(request.input).catch((error: Error) => {
    throw new CaptionBurnError(`The video could not be read: ${error.message}`);
  });
  if (!info.hasVideo || !info.width || !info.height)
    throw new CaptionBurnError('That file has no picture to burn captions into.');
  const frame = { width: info.width, height: info.height };
  const output = burnedName(request.input);
  const part = `${output}.part`;
  const scratch = await mkdtemp(join(tmpdir(), 'studio-burn-'));
  try {
    // One picture per distinct caption, laid over the frames between its start and end.
    const files = new Map<string, { path: string; x: number; y: number }>();
    for (const cue of cues) {
      if (files.has(cue.text)) continue;
      const picture = await drawCue(deps.rasteriser, request.settings, cue.text, frame);
      const path = join(scratch, `cue-${files.size}.png`);
      await writeFile(path, picture.png);
      files.set(cue.text, { path, x: picture.x, y: picture.y });
    }
    const pictures = [...files.values()];
    const inputs = pictures.flatMap((p) => ['-i', p.path]);
    const chain = cues.map((cue, i) => {
      const picture = files.get(cue.text)!;
      const from = i === 0 ? '0:v' : `v${i}`;
      const enable = `between(t,${(cue.startMs / 1000).toFixed(3)},${(cue.endMs / 1000).toFixed(3)})`;
      return `[${from}][${pictures.indexOf(picture) + 1}:v]overlay=${picture.x}:${picture.y}:enable='${enable}'[v${i + 1}]`;
    });
    const args = [
      '-hide_banner',
      '-nostats',
      '-y',
      '-i',
      request.input,
      ...inputs,
      '-filter_complex',
      chain.join(';'),
      '-map',
      `[v${cues.length}]`,
      '-map',
      '0:a?',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'copy',
      '-movflags',
      '+faststart',
      '-progress',
      'pipe:1',
      '-f',
      'mp4',
      part,
    ];
    const parser = createProgressParser(info.durationMs ?? 0);
    const result = await deps.runner.run(await deps.ffmpeg(), args, {
      signal: request.signal,
      onStdoutLine: (line) => {
        const report = parser.push(line);
        if (report) request.onProgress?.(report.fraction);
      },
    });
    if (result.aborted || request.signal?.aborted)
      throw new CaptionBurnError('Burning the captions was stopped; no copy was kept.');
    if (result.code !== 0)
      throw new CaptionBurnError(
        `ffmpeg could not burn the captions in: ${result.stderr.trim().split('\n').at(-1) ?? `exit code ${result.code}`}`,
      );
    await rename(part, output);
    request.onProgress?.(1);
    return output;
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
