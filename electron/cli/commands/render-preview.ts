import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { previewWidth } from '../../common/composition/ffmpeg-args';
import type { RenderProgress } from '../../common/composition/progress';
import { validateProject } from '../../common/composition/validate';
import { defaultDataDir } from '../../services/host/data-dir';
import { namedBy } from '../cli-host';
import { folderExists } from '../../services/host/data-folder-state';
import { isAbortError } from '../../services/media/ffmpeg-render';
import { savedCopiesIn } from '../../services/records/sqlite-downloads';
import { createMediaToolkit } from '../../services/media/toolkit';
import { createTextPictures } from '../../services/text/text-domain';
import { EXIT, UsageError, flag, type CliCommand, type CliIo } from '../command';
import { JSON_OPTION } from '../common-options';
import { readProjectArg, resolveRelativeMedia } from './project-file';

/**
 * `render-preview <project.json> --out <file.mp4> [--width N] [--draft]`: renders locally with ffmpeg,
 * with a progress bar on a terminal (percentage lines otherwise). Ctrl-C stops ffmpeg and removes the
 * partial file.
 */
export const renderPreviewCommand: CliCommand = {
  name: 'render-preview',
  summary: 'render a project locally with ffmpeg (low-resolution preview, or --draft at full size)',
  arguments: [{ name: 'PROJECT.json', help: 'a saved project file', required: true }],
  options: [
    { name: '--out', value: 'FILE.mp4', help: 'where to write the video', required: true },
    {
      name: '--width',
      value: 'N',
      help: "the preview's width in pixels",
      range: { min: 16, max: 7680, integer: true },
    },
    { name: '--draft', help: 'render at full size, quickly' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const { project: loaded, path } = await readProjectArg(args, io);
    const out = flag(args, '--out');
    if (!out) throw new UsageError('Give the output file with --out <file.mp4>');
    const widthFlag = flag(args, '--width');
    const width = widthFlag === undefined ? undefined : Number(widthFlag);
    if (width !== undefined && (!Number.isInteger(width) || width < 16 || width > 3840))
      throw new UsageError(`--width must be a whole number of pixels from 16 to 3840 (got "${widthFlag}")`);
    const quality = args.flags['--draft'] === true ? 'draft' : 'preview';
    const project = resolveRelativeMedia(loaded, path);
    const outputPath = isAbsolute(out) ? out : resolve(io.cwd, out);

    const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
    // A file in the folder's place is named (exit 4) before anything is made under it.
    folderExists(dataDir, namedBy(args, io));
    // Text elements are overlaid as the same pictures the studio's canvas shows and submit uploads.
    const pictures = createTextPictures(dataDir, (file) => pathToFileURL(file).href);
    await pictures.knowFontsOf(project);
    for (const problem of validateProject(project, { purpose: 'preview' }))
      io.err(`  ${problem.level}  ${problem.message}`);
    const toolkit = createMediaToolkit({ dataDir, resolve: { env: io.env }, savedCopies: savedCopiesIn(dataDir) });
    // Results the studio saved render from disk, also once their links have expired.
    const controller = new AbortController();
    const interrupt = (): void => controller.abort();
    process.once('SIGINT', interrupt);
    const bar = progressReporter(io, Boolean(process.stderr.isTTY));
    try {
      await mkdir(dirname(outputPath), { recursive: true });
      const result = await toolkit.renderer.render(await pictures.flatten(project), {
        quality,
        width: width ?? (quality === 'preview' ? previewWidth(project.output) : undefined),
        outputPath,
        signal: controller.signal,
        onProgress: bar.update,
      });
      bar.finish();
      for (const note of result.notes) io.err(`  note  ${note}`);
      // Heard in a stand-in voice, not the service's: said on every render that has one.
      for (const line of result.draftVoices) io.err(`  draft voice  ${line}`);
      if (args.flags['--json'])
        io.out(
          JSON.stringify(
            {
              path: result.path,
              width: result.width,
              height: result.height,
              durationMs: result.durationMs,
              followsSpeech: result.followsSpeech,
            },
            null,
            2,
          ),
        );
      else
        io.out(
          `${result.path}  ${result.width}x${result.height}  ${(result.durationMs / 1000).toFixed(1)} s${result.followsSpeech ? ' (as long as its speech)' : ''}`,
        );
      return EXIT.ok;
    } catch (error) {
      bar.finish();
      if (isAbortError(error)) {
        io.err(`Stopped; ${existsSync(outputPath) ? 'the earlier file was kept' : 'no partial file was left'}.`);
        return EXIT.failed;
      }
      throw error;
    } finally {
      process.off('SIGINT', interrupt);
      await toolkit.dispose();
    }
  },
};

/** One line redrawn in place on a terminal; a line per 10 % otherwise (logs, CI). */
export function progressReporter(
  io: CliIo,
  tty: boolean,
  write: (text: string) => void = (t) => process.stderr.write(t),
): { update(p: RenderProgress): void; finish(): void } {
  let lastStep = -1;
  let drawn = false;
  return {
    update(p) {
      if (tty) {
        write(`\r${formatProgressBar(p)}`);
        drawn = true;
        return;
      }
      const step = Math.floor(p.fraction * 10);
      if (step > lastStep) {
        lastStep = step;
        io.err(`rendering ${Math.round(p.fraction * 100)}%`);
      }
    },
    finish() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}

export function formatProgressBar(p: RenderProgress, width = 30): string {
  const fraction = Math.max(0, Math.min(1, p.fraction));
  const filled = Math.round(fraction * width);
  const speed = p.speed === null ? '' : `  ${p.speed.toFixed(1)}x`;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${(p.outTimeMs / 1000).toFixed(1)} s${speed}`;
}
