import { rename, rm, writeFile } from 'node:fs/promises';
import type { DownloadView } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import { JOB_KIND_REGISTRY } from '../../common/jobs/kinds';
import type { Project } from '../../common/composition/document';
import { captionSettingsOf, projectCues } from '../../common/captions/caption-ops';
import { toSrt, toWebVtt } from '../../common/captions/subtitle-files';
import type { Cue } from '../../common/captions/caption-timing';
import type { CaptionSettings } from '../../common/captions/caption-track';
import type { Logger } from '../host/types';

/**
 * Subtitle files beside downloaded results: when a video of a project whose captions option is on is
 * saved, `<result name>.srt` and `<result name>.vtt` are written next to it from the project's caption
 * track (as last saved). Each file is written whole (a part file renamed), once per saved download.
 * The downloads service owns one (given a project reader), so the studio's queue and `studio download`
 * write them the same way.
 */
export interface CaptionSidecarsDeps {
  job(id: string): JobRecord | null;
  project(id: string): Promise<Project | null>;
  log: Logger;
}

export function sidecarPaths(savedPath: string): { srt: string; vtt: string } {
  const stem = savedPath.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return { srt: `${stem}.srt`, vtt: `${stem}.vtt` };
}

/** The captions of a job's result on its clock, and their look; null when the result is not a project's video. */
export async function resultCaptions(
  deps: Pick<CaptionSidecarsDeps, 'job' | 'project'>,
  jobId: string,
): Promise<{ cues: Cue[]; settings: CaptionSettings } | null> {
  const job = deps.job(jobId);
  if (!job?.projectId) return null;
  // The kind registry says which scenes a kind's result shows (a voiceover's audio gets no subtitles of its own).
  const scenes = JOB_KIND_REGISTRY[job.kind].result.projectScenes;
  if (scenes === null) return null;
  const project = await deps.project(job.projectId);
  if (!project) return null;
  // Every scene in order (an avatar video), or the first alone, as long as its speech (a talking avatar).
  const cues =
    scenes === 'first'
      ? projectCues({ scenes: project.scenes.slice(0, 1) }, [Number.MAX_SAFE_INTEGER])
      : projectCues(project);
  return { cues, settings: captionSettingsOf(project) };
}

/** Saved downloads remembered as done: a saved one is announced a few times over its first moments, not for ever. */
const DONE_KEPT = 1_000;

export class CaptionSidecars {
  /** The latest saved downloads whose files were begun (a worker saves thousands: the oldest go). */
  private readonly done = new Set<string>();
  private readonly writing = new Set<Promise<unknown>>();

  constructor(private readonly deps: CaptionSidecarsDeps) {}

  /** Every download change passes here; a newly saved video of a captioned project gets its files. */
  seen(view: DownloadView): void {
    if (view.state !== 'saved' || !view.savedPath) return;
    const key = `${view.id}\u0000${view.savedPath}`;
    if (this.done.has(key)) return;
    this.done.add(key);
    if (this.done.size > DONE_KEPT) this.done.delete(this.done.values().next().value as string);
    const work = this.write(view.jobId, view.savedPath).catch((error: unknown) =>
      this.deps.log.warn('captions not written beside a download', {
        path: view.savedPath,
        error: (error as Error).message,
      }),
    );
    this.writing.add(work);
    void work.finally(() => this.writing.delete(work));
  }

  /** Settles once every file begun so far is written (or given up): a command line exits after it. */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  /** The files written (null: the result is not a captioned project's video). */
  async write(jobId: string, savedPath: string): Promise<{ srt: string; vtt: string } | null> {
    const found = await resultCaptions(this.deps, jobId);
    if (!found || !found.settings.besideDownloads) return null;
    const { cues } = found;
    if (cues.length === 0) return null;
    const paths = sidecarPaths(savedPath);
    await Promise.all([whole(paths.srt, toSrt(cues)), whole(paths.vtt, toWebVtt(cues))]);
    return paths;
  }
}

async function whole(path: string, text: string): Promise<void> {
  const part = `${path}.${process.pid}.part`;
  try {
    await writeFile(part, text, 'utf8');
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}
