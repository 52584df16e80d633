import type { Project } from '@common/composition';
import type { PreviewRenderer } from '../../../electron/services/media/preview-renderer';

/** A draft render cancelled as soon as ffmpeg reports its first progress; what it rejected with. */
export function cancelledRender(renderer: PreviewRenderer, project: Project, outputPath: string): Promise<unknown> {
  const controller = new AbortController();
  const onProgress = (progress: { outTimeMs: number }): void => {
    if (progress.outTimeMs > 0) controller.abort();
  };
  return renderer.render(project, { quality: 'draft', outputPath, signal: controller.signal, onProgress }).then(
    () => new Error('the render was not cancelled'),
    (error: unknown) => error,
  );
}
