import type { EmulatorContext } from '../../context';
import type { JobRecord } from '../../state/types';
import type { ProcessContext, ProcessResult } from '../engine';

/**
 * Lip sync in the sandbox: the video keeps its pictures and length and gets the given audio as its
 * sound (padded with silence or cut to the video's length). Mouths are not re-animated.
 */
export async function processLipSync(ctx: EmulatorContext, job: JobRecord, p: ProcessContext): Promise<ProcessResult> {
  const video = await ctx.fetcher.toFile(String(job.request.video_url), 'video_url', { signal: p.signal });
  const audio = await ctx.fetcher.toFile(String(job.request.audio_url), 'audio_url', { signal: p.signal });
  const info = await ctx.tools.probe(video, p.signal);
  const seconds = (info.durationMs ?? 0) / 1000;
  const file = `${job._id}.mp4`;
  const out = ctx.files.resultPath(file);
  const copy = info.videoCodec === 'h264';
  await ctx.tools.runFfmpeg(
    [
      '-i',
      video,
      '-i',
      audio,
      '-map',
      '0:v:0',
      '-map',
      '1:a:0',
      ...(copy ? ['-c:v', 'copy'] : ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p']),
      '-af',
      'apad',
      '-t',
      seconds.toFixed(3),
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-movflags',
      '+faststart',
      out,
    ],
    p.signal,
  );
  const known = await ctx.catalogue.identify(video);
  if (known && copy) await ctx.catalogue.remember(out, { ...known, file });
  return { file, facts: { durationSeconds: seconds } };
}
