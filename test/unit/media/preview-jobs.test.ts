import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProject } from '@common/composition';
import { PreviewJobs, safeName, type PreviewJobListener } from '../../../electron/services/media/preview-jobs';
import type { PreviewRenderer, RenderRequest } from '../../../electron/services/media/preview-renderer';
import { until } from '../../wait';

let dir = '';
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

/** A renderer that writes a file when released, or fails as an abort when its signal fires. */
function fakeRenderer() {
  const pending: Array<{ request: RenderRequest; release: () => void }> = [];
  const renderer = {
    render: (_project: unknown, request: RenderRequest) =>
      new Promise((resolve, reject) => {
        request.signal?.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
        pending.push({
          request,
          release: () => {
            request.onProgress?.({ outTimeMs: 500, fraction: 0.5, frame: 12, speed: 5, done: false });
            writeFileSync(request.outputPath, 'mp4');
            resolve({ path: request.outputPath, width: 640, height: 360, durationMs: 1000, notes: [] });
          },
        });
      }),
  } as unknown as PreviewRenderer;
  return { renderer, pending };
}

function recorder() {
  const events: string[] = [];
  const listener: PreviewJobListener = {
    progress: (id, p) => events.push(`progress ${id} ${p.fraction}`),
    done: (id, r) => events.push(`done ${id} ${r.fileName}`),
    failed: (id, message, cancelled) => events.push(`failed ${id} ${cancelled} ${message}`),
  };
  return { events, listener };
}

describe('PreviewJobs', () => {
  it('reports progress and completion, keeping only the latest file per project and quality', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const { renderer, pending } = fakeRenderer();
    const { events, listener } = recorder();
    let n = 0;
    const jobs = new PreviewJobs(renderer, dir, listener, () => `r${++n}`);
    const project = createProject({ id: 'proj/1', kind: 'avatar-video', output: '1:1' });
    // Each step waits for what it brings about (a fixed 20 ms pause was too short on a busy machine).
    jobs.start(project, { quality: 'preview' });
    await until('the first render to start', () => pending.length === 1);
    pending[0].release();
    await until('r1 to be done', () => events.includes('done r1 proj_1.preview.r11.mp4'));
    jobs.start(project, { quality: 'preview' });
    await until('the second render to start', () => pending.length === 2);
    pending[1].release();
    await until('r2 to be done', () => events.includes('done r2 proj_1.preview.r22.mp4'));
    expect(events).toEqual([
      'progress r1 0.5',
      'done r1 proj_1.preview.r11.mp4',
      'progress r2 0.5',
      'done r2 proj_1.preview.r22.mp4',
    ]);
    await until('only the newer preview file to be left', () => readdirSync(dir).join() === 'proj_1.preview.r22.mp4');
  });

  it('cancels on request, and a newer render of the same project cancels the older', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const { renderer, pending } = fakeRenderer();
    const { events, listener } = recorder();
    let n = 0;
    const jobs = new PreviewJobs(renderer, dir, listener, () => `r${++n}`);
    const project = createProject({ id: 'p', kind: 'avatar-video', output: '1:1' });
    jobs.start(project, { quality: 'draft' });
    await until('the first render to start', () => pending.length === 1);
    jobs.start(project, { quality: 'draft' });
    await until('r1 to be cancelled', () => events.length > 0);
    expect(events).toEqual(['failed r1 true The preview was cancelled.']);
    await until('the newer render to start', () => pending.length === 2);
    expect(jobs.cancel('r2')).toBe(true);
    expect(jobs.cancel('nope')).toBe(false);
    await until('no render to be active', () => jobs.active === 0);
    jobs.start(project, { quality: 'preview' });
    await jobs.dispose();
    expect(events.at(-1)).toBe('failed r3 true The preview was cancelled.');
  });

  it('makes ids safe for file names', () => {
    expect(safeName('../a.b c')).toBe('___a_b_c');
    expect(safeName('')).toBe('project');
  });
});
