import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { captionSettingsOf } from '../../common/captions/caption-ops';
import { parseSrt } from '../../common/captions/subtitle-files';
import { DEFAULT_CAPTION_SETTINGS } from '../../common/captions/caption-track';
import { parseProject } from '../../common/composition/document';
import { defaultDataDir } from '../../services/host/data-dir';
import { namedBy } from '../cli-host';
import { folderExists } from '../../services/host/data-folder-state';
import { burnCaptions } from '../../services/media/caption-burn';
import { sidecarPaths } from '../../services/downloads/caption-sidecars';
import { createMediaToolkit } from '../../services/media/toolkit';
import { createTextPictures } from '../../services/text/text-domain';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';
import { progressReporter } from './render-preview';

/**
 * `captions burn <video> [--srt FILE] [--project FILE.json]`: burns captions into a copy of a video
 * ("<name> (captions).mp4" beside it), from the .srt the studio saved beside it unless another is
 * named, in the look of the project's captions when one is given. The original is only read; Ctrl-C
 * stops ffmpeg and leaves no partial copy.
 */
export const captionsBurnCommand: CliCommand = {
  name: 'captions burn',
  summary: 'burn captions into a copy of a video (from the .srt beside it)',
  arguments: [{ name: 'VIDEO', help: 'a downloaded result (or any video)', required: true }],
  options: [
    { name: '--srt', value: 'FILE', help: 'the captions (default: <video name>.srt beside it)' },
    { name: '--project', value: 'FILE.json', help: 'a project file whose caption look to use' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const where = (p: string): string => (isAbsolute(p) ? p : resolve(io.cwd, p));
    const video = where(args.positional[0] ?? '');
    if (!existsSync(video)) throw new UsageError(`No such video: ${args.positional[0]}`);
    const srt = where(flag(args, '--srt') ?? sidecarPaths(video).srt);
    const srtText = await readFile(srt, 'utf8').catch(() => {
      throw new UsageError(`No captions at ${srt}: name them with --srt <file.srt>`);
    });
    let cues;
    try {
      cues = parseSrt(srtText);
    } catch (error) {
      throw new UsageError(`${srt}: ${(error as Error).message}`);
    }
    let settings = DEFAULT_CAPTION_SETTINGS;
    const projectFile = flag(args, '--project');
    if (projectFile) {
      const parsed = parseProject(await readFile(where(projectFile), 'utf8').catch(() => '{}'));
      if (!parsed.ok) throw new UsageError(`${projectFile} is not a project the studio can read. ${parsed.error}`);
      settings = captionSettingsOf(parsed.project);
    }
    const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
    // A file in the folder's place is named (exit 4) before anything is made under it.
    folderExists(dataDir, namedBy(args, io));
    const toolkit = createMediaToolkit({ dataDir, resolve: { env: io.env } });
    const pictures = createTextPictures(dataDir, (file) => pathToFileURL(file).href);
    const controller = new AbortController();
    const interrupt = (): void => controller.abort();
    process.once('SIGINT', interrupt);
    const bar = progressReporter(io, Boolean(process.stderr.isTTY));
    try {
      const path = await burnCaptions(
        {
          runner: toolkit.runner,
          ffmpeg: () => toolkit.binary('ffmpeg'),
          prober: toolkit.prober,
          rasteriser: pictures.rasteriser,
        },
        {
          input: video,
          cues,
          settings,
          signal: controller.signal,
          onProgress: (fraction) =>
            bar.update({ fraction, outTimeMs: 0, frame: null, speed: null, done: fraction >= 1 }),
        },
      );
      bar.finish();
      if (args.flags['--json']) io.out(JSON.stringify({ path, captions: cues.length }, null, 2));
      else io.out(`${path}  ${cues.length} caption${cues.length === 1 ? '' : 's'} burned in`);
      return EXIT.ok;
    } catch (error) {
      bar.finish();
      io.err((error as Error).message);
      return EXIT.failed;
    } finally {
      process.off('SIGINT', interrupt);
      await toolkit.dispose();
    }
  },
};
