import { pathToFileURL } from 'node:url';
import type { PlacementConvention } from '../../common/composition/placement';
import type { Logger } from '../host/types';
import type { StorageServices } from '../storage/storage-services';
import { createTextPictures } from '../text/text-domain';
import { saveResult, sendableBody, uploadLocalFiles } from './campaign-media';
import { CampaignRunner, type CampaignEngine } from './campaign-runner';
import { CampaignStore } from './campaign-store';

export interface CampaignHost {
  dataDir: string;
  engine: CampaignEngine;
  storage: StorageServices;
  log?: Logger;
  notify?(title: string, body: string, outcome: 'completed' | 'failed'): void;
  placement?: PlacementConvention;
  /** Checks a saved video is real media (ffprobe); throws with the reason otherwise. */
  verify?(path: string): Promise<void>;
  backoffMs?: number;
}

/**
 * A campaign runner on a host's services: its records in the data folder, text drawn by the host's
 * rasteriser, local files uploaded by the host's uploader, results saved through .part files. The
 * host registers `runner.jobEnded` with its reactor for 'campaign-row' jobs before the reactor starts.
 */
export function createCampaignRunner(host: CampaignHost): CampaignRunner {
  const pictures = createTextPictures(host.dataDir, (path) => pathToFileURL(path).href);
  const linkLocal = uploadLocalFiles(host.storage);
  return new CampaignRunner({
    engine: host.engine,
    store: new CampaignStore(host.dataDir),
    prepare: (body, project) => sendableBody(body, project, { picture: (style, size) => pictures.picture(style, size), linkLocal }),
    download: (url, target) => saveResult(url, target, { verify: host.verify }),
    placement: host.placement,
    log: host.log,
    notify: host.notify,
    backoffMs: host.backoffMs,
  });
}
