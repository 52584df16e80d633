import type { EmulatorContext } from '../../context';
import type { JobRecord } from '../../state/types';
import type { ProcessContext, ProcessResult } from '../engine';

const HEIGHTS: Record<string, number> = { '480p': 480, '720p': 720, '1080p': 1080 };
const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/**
 * Character swap in the sandbox: a deterministic composite, not a generative model. The source video
 * (looped or cut to the duration) is scaled to the resolution; in `animate` mode the character stands
 * in the middle, gently bobbing; in `replace` mode it covers each face the sandbox knows of in the
 * video (its own sample clips), or the middle third when it knows none.
 */
export async function processCharacterSwap(
  ctx: EmulatorContext,
  job: JobRecord,
  p: ProcessContext,
): Promise<ProcessResult> {
  const r = job.request;
  const video = await ctx.fetcher.toFile(String(r.video), 'video', { signal: p.signal });
  const image = await ctx.fetcher.toFile(String(r.image), 'image', { signal: p.signal });
  const info = await ctx.tools.probe(video, p.signal);
  const seconds = Number(job.facts.durationSeconds);
  const H = HEIGHTS[String(r.resolution)] ?? 720;
  const W = even((H * (info.width ?? 16)) / (info.height ?? 9));
  const known = await ctx.catalogue.identify(video);
  const graph: string[] = [
    `[0:v]scale=${W}:${H},setsar=1,fps=25${r.mode === 'animate' ? ',eq=brightness=-0.12' : ''}[bg]`,
  ];
  if (r.mode === 'replace' && known?.faces.length) {
    const sx = W / known.width;
    const sy = H / known.height;
    // When the character picture is one of the sandbox's own, only its face goes over each face.
    const character = await ctx.catalogue.identify(image);
    const face = character?.faces[0]?.region;
    const cropFace = face ? `crop=${face[2]}:${face[3]}:${face[0]}:${face[1]},` : '';
    const split = known.faces.map((_, i) => `[c${i}]`).join('');
    graph.push(`[1:v]${cropFace}split=${known.faces.length}${split}`);
    let last = 'bg';
    known.faces.forEach((f, i) => {
      const [x, y, w, h] = f.region;
      graph.push(
        `[c${i}]scale=${even(w * sx)}:${even(h * sy)}[s${i}]`,
        `[${last}][s${i}]overlay=x=${Math.round(x * sx)}:y=${Math.round(y * sy)}[o${i}]`,
      );
      last = `o${i}`;
    });
    graph.push(`[${last}]format=yuv420p[v]`);
  } else if (r.mode === 'replace') {
    graph.push(`[1:v]scale=-2:${even(H / 3)}[c]`, `[bg][c]overlay=x=(W-w)/2:y=(H-h)/2,format=yuv420p[v]`);
  } else {
    graph.push(
      `[1:v]scale=-2:${even(H * 0.8)}[c]`,
      `[bg][c]overlay=x=(W-w)/2:y=(H-h)/2+${Math.round(H * 0.02)}*sin(2*PI*t),format=yuv420p[v]`,
    );
  }
  const file = `${job._id}.mp4`;
  await ctx.tools.runFfmpeg(
    [
      '-stream_loop',
      '-1',
      '-i',
      video,
      '-loop',
      '1',
      '-i',
      image,
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[v]',
      ...(info.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k'] : []),
      '-t',
      seconds.toFixed(3),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-movflags',
      '+faststart',
      ctx.files.resultPath(file),
    ],
    p.signal,
  );
  return { file, facts: { width: W, height: H } };
}
