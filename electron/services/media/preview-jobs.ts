import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Project } from '../../common/composition/document';
import type { RenderQuality } from '../../common/composition/ffmpeg-args';
import type { RenderProgress } from '../../common/composition/progress';
import { abortError, isAbortError } from './ffmpeg-render';
import type { PreviewRenderer, RenderResult } from './preview-renderer';

/**
 * Running previews by id, for the bridge: start returns at once, progress/done/failure arrive as
 * callbacks (the domain turns them into events). A new render of the same project and quality
 * cancels the previous one; only the latest finished file per project and quality is kept.
 */
export interface PreviewJobListener {
  progress(renderId: string, progress: RenderProgress): void;
  done(renderId: string, result: RenderResult & { fileName: string }): void;
  failed(renderId: string, message: string, cancelled: boolean): void;
}

interface Running {
  key: string;
  controller: AbortController;
  finished: Promise<void>;
}

export class PreviewJobs {
  private readonly running = new Map<string, Running>();
  private counter = 0;

  constructor(
    private readonly renderer: PreviewRenderer,
    private readonly dir: string,
    private readonly listener: PreviewJobListener,
    private readonly newId: () => string = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  ) {}

  start(project: Project, options: { quality: RenderQuality; width?: number }): string {
    const renderId = this.newId();
    const key = `${safeName(project.id)}.${options.quality}`;
    for (const [id, job] of this.running) if (job.key === key) this.cancel(id);

    const controller = new AbortController();
    const fileName = `${key}.${safeName(renderId)}${++this.counter}.mp4`;
    const outputPath = join(this.dir, fileName);
    const finished = (async () => {
      try {
        await mkdir(this.dir, { recursive: true });
        if (controller.signal.aborted) throw abortError();
        const result = await this.renderer.render(project, {
          quality: options.quality,
          width: options.width,
          outputPath,
          signal: controller.signal,
          onProgress: (progress) => this.listener.progress(renderId, progress),
        });
        await this.removeOlder(key, fileName);
        this.listener.done(renderId, { ...result, fileName });
      } catch (error) {
        const cancelled = isAbortError(error) || controller.signal.aborted;
        this.listener.failed(renderId, cancelled ? 'The preview was cancelled.' : (error as Error).message, cancelled);
      } finally {
        this.running.delete(renderId);
      }
    })();
    this.running.set(renderId, { key, controller, finished });
    return renderId;
  }

  /** Stops a render (its process is killed, its partial file removed). False when it is not running. */
  cancel(renderId: string): boolean {
    const job = this.running.get(renderId);
    if (!job) return false;
    job.controller.abort();
    return true;
  }

  get active(): number {
    return this.running.size;
  }

  /** Cancels everything and waits until each render has cleaned up. */
  async dispose(): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.finished));
  }

  private async removeOlder(key: string, keep: string): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith(`${key}.`) && n !== keep && !n.endsWith('.part'))
        .map((n) => rm(join(this.dir, n), { force: true })),
    );
  }
}

/** An id made safe for a file name (no dots, so "<id>.<quality>." prefixes never collide). */
export function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'project';
}
