import { randomBytes } from 'node:crypto';
import type { captionsBurnCalls, CaptionBurnEvent } from '../../common/bridge/captions';
import type { JobRecord } from '../../common/bridge/jobs';
import type { Project } from '../../common/composition/document';
import type { TextRasteriser } from '../../common/text/text-rasteriser';
import { StudioError } from '../host/errors';
import type { DomainModule, Logger } from '../host/types';
import { burnCaptions } from '../media/caption-burn';
import type { MediaToolkit } from '../media/toolkit';
import type { DownloadManager } from './download-manager';
import { resultCaptions } from './caption-sidecars';

/**
 * captions.burn from the Library: the project's captions burned into a copy of a saved result, in the
 * background, its progress and outcome told as captions.burning events. Quitting stops a burn under way
 * (its part file is removed; the original was only read).
 */
export interface CaptionBurnDomainDeps {
  downloads: Pick<DownloadManager, 'get'>;
  job(id: string): JobRecord | null;
  project(id: string): Promise<Project | null>;
  media: Pick<MediaToolkit, 'runner' | 'binary' | 'prober'>;
  rasteriser: TextRasteriser;
  emit(event: CaptionBurnEvent): void;
  log: Logger;
}

export function createCaptionBurnDomain(deps: CaptionBurnDomainDeps): DomainModule<typeof captionsBurnCalls> {
  const running = new Map<string, AbortController>();
  return {
    handlers: {
      'captions.burn': async ({ downloadId }) => {
        let entry;
        try {
          entry = deps.downloads.get(downloadId);
        } catch {
          throw new StudioError('That download is no longer in the list.', 'not-found');
        }
        if (entry.state !== 'saved' || !entry.savedPath)
          throw new StudioError('Captions can be burned into a saved result only: download it first.', 'not-saved');
        const found = await resultCaptions(deps, entry.jobId);
        if (!found)
          throw new StudioError(
            'This result is not a video of a project in the studio, so it has no captions to burn in.',
            'no-captions',
          );
        if (found.cues.length === 0)
          throw new StudioError(
            "The result's project has no captions: make them on its timeline (Make captions), save, and burn again.",
            'no-captions',
          );
        const burnId = randomBytes(6).toString('hex');
        const controller = new AbortController();
        running.set(burnId, controller);
        const tell = (change: Partial<CaptionBurnEvent>): void =>
          deps.emit({ burnId, downloadId, state: 'running', fraction: 0, path: null, message: null, ...change });
        tell({});
        const input = entry.savedPath;
        void burnCaptions(
          {
            runner: deps.media.runner,
            ffmpeg: () => deps.media.binary('ffmpeg'),
            prober: deps.media.prober,
            rasteriser: deps.rasteriser,
          },
          {
            input,
            cues: found.cues,
            settings: found.settings,
            signal: controller.signal,
            onProgress: (fraction) => tell({ fraction: Math.min(0.99, fraction) }),
          },
        )
          .then(
            (path) => tell({ state: 'done', fraction: 1, path }),
            (error: unknown) => {
              deps.log.warn('captions not burned in', { input, error: (error as Error).message });
              tell({ state: 'failed', message: (error as Error).message });
            },
          )
          .finally(() => running.delete(burnId));
        return { burnId };
      },
    },
    async dispose() {
      for (const controller of running.values()) controller.abort();
    },
  };
}

/** The burn domain of a host: its downloads, projects, ffmpeg and rasteriser. */
export function hostCaptionBurn(
  base: { emit(event: 'captions.burning', payload: CaptionBurnEvent): void; log: Logger },
  downloads: { manager: Pick<DownloadManager, 'get'>; jobOrNull(id: string): JobRecord | null },
  projects: { read(id: string): Promise<Project | null> },
  media: Pick<MediaToolkit, 'runner' | 'binary' | 'prober'>,
  rasteriser: TextRasteriser,
): DomainModule<typeof captionsBurnCalls> {
  return createCaptionBurnDomain({
    downloads: downloads.manager,
    job: (id) => downloads.jobOrNull(id),
    project: (id) => projects.read(id),
    media,
    rasteriser,
    emit: (event) => base.emit('captions.burning', event),
    log: base.log,
  });
}
