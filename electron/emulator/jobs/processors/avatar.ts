import type { EmulatorContext } from '../../context';
import type { JobRecord } from '../../state/types';
import type { ProcessContext, ProcessResult } from '../engine';

/** Avatar upload: the link must hold a picture or a video; the result is its thumbnail. */
export async function processAvatarUpload(
  ctx: EmulatorContext,
  job: JobRecord,
  p: ProcessContext,
): Promise<ProcessResult> {
  const source = await ctx.fetcher.toFile(String(job.request.url), 'url', { signal: p.signal });
  let info;
  try {
    info = await ctx.tools.probe(source, p.signal);
  } catch (error) {
    throw new Error(`url is not a video or image the sandbox can read (${(error as Error).message})`);
  }
  if (!info.hasVideo) throw new Error('url holds no picture: an avatar needs a video (or an image)');
  const file = `${job._id}-thumb.jpg`;
  const at = info.kind === 'video' && (info.durationMs ?? 0) > 1000 ? ['-ss', '0.5'] : [];
  await ctx.tools.runFfmpeg(
    [...at, '-i', source, '-frames:v', '1', '-vf', 'scale=320:-2', '-q:v', '4', ctx.files.resultPath(file)],
    p.signal,
  );
  return {
    file,
    facts: { width: info.width ?? 0, height: info.height ?? 0, durationSeconds: (info.durationMs ?? 0) / 1000 },
  };
}
