import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseProject, type Project } from '../../common/composition/document';
import { urlKind } from '../../common/composition/rules';
import { UsageError, type CliIo, type ParsedArgs } from '../command';

/** Reads and validates the project file named on the command line (relative to the working folder). */
export async function readProjectArg(args: ParsedArgs, io: CliIo): Promise<{ project: Project; path: string }> {
  const given = args.positional[0];
  if (!given) throw new UsageError('Give the project file (a .json saved by the studio)');
  const path = isAbsolute(given) ? given : resolve(io.cwd, given);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(
      `Cannot read ${given}: ${(error as { code?: string }).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  const parsed = parseProject(text);
  if (!parsed.ok) throw new Error(`${given} is not a valid project. ${parsed.error}`);
  return { project: parsed.project, path };
}

/**
 * Media given as paths relative to the project file ("media/clip.mp4") become file: URLs, so a project
 * folder can be rendered from anywhere. Links and absolute paths are left as they are.
 */
export function resolveRelativeMedia(project: Project, projectPath: string): Project {
  const base = dirname(projectPath);
  const fix = (url: string): string =>
    urlKind(url) === 'other' && !/^[a-z][a-z0-9+.-]*:/i.test(url) ? pathToFileURL(resolve(base, url)).href : url;
  return {
    ...project,
    scenes: project.scenes.map((scene) => ({
      ...scene,
      voice:
        scene.voice?.kind === 'url'
          ? { ...scene.voice, url: fix(scene.voice.url) }
          : scene.voice?.kind === 'tts' && scene.voice.audioUrl
            ? { ...scene.voice, audioUrl: fix(scene.voice.audioUrl) }
            : scene.voice,
      elements: scene.elements.map((e) => ({ ...e, url: e.url ? fix(e.url) : e.url })),
    })),
  };
}
