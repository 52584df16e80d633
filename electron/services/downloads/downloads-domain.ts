import { dirname } from 'node:path';
import type { downloadsCalls } from '../../common/bridge/downloads';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import type { StudioServices } from '../jobs/studio-services';
import type { ProjectLibrary } from '../projects/project-library';
import { appSettingsSpec } from '../system/settings-store';
import { DownloadsService, suggestedFolder } from './downloads-service';
import { ffprobeVerifier } from './verify';

/**
 * The download service of a host (the queue file has one owner), built once by the composition
 * (createDomains) and shared by the domain and the archive.
 */
export function createDownloadsService(base: HostBase, { jobs }: Pick<StudioServices, 'jobs'>, projects: ProjectLibrary): DownloadsService {
  const settings = base.createStore(appSettingsSpec);
  return new DownloadsService({
    dataDir: base.dataDir,
    createStore: base.createStore,
    log: base.log,
    job: (id) => jobs.get(id),
    projectName: async (id) => (await projects.listRecent()).find((p) => p.id === id)?.name ?? null,
    verify: ffprobeVerifier(() => settings.get()),
    onChange: (view) => base.emit('downloads.changed', view),
    onTotals: (totals) => base.emit('downloads.progress', totals),
    notify: (title, body, ok) => {
      if (base.platform.notify) base.platform.notify(title, body);
      else base.notices.raise({ level: ok ? 'success' : 'error', title, detail: body });
    },
  });
}

export function createDownloadsDomain(base: HostBase, service: DownloadsService): DomainModule<typeof downloadsCalls> {
  const { manager } = service;
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw new StudioError((error as Error).message, 'not-found');
    }
  };
  return {
    handlers: {
      'downloads.list': async () => manager.list(),
      'downloads.totals': async () => manager.totals(),
      'downloads.start': async (request) => {
        try {
          return await service.start({ ...request, origin: 'library' });
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-argument');
        }
      },
      'downloads.pause': async (id) => guard(() => manager.pause(id)),
      'downloads.resume': async (id) => guard(() => manager.resume(id)),
      'downloads.cancel': async (id) => {
        guard(() => manager.get(id));
        return manager.cancel(id);
      },
      'downloads.resumeAll': async () => manager.resumeAll(),
      'downloads.checkFolder': async (folder) => service.checkFolder(folder),
      'downloads.chooseFolder': async () => (base.platform.chooseFolder ? base.platform.chooseFolder({ title: 'Download results to…' }) : null),
      'downloads.showInFolder': async (id) => {
        const entry = guard(() => manager.get(id));
        if (!entry.savedPath) throw new StudioError('This download is not saved yet.', 'not-ready');
        if (!base.platform.openPath) throw new StudioError('This host cannot open folders; the saved path is shown instead.', 'unsupported');
        await base.platform.openPath(dirname(entry.savedPath));
      },
      'downloads.preferences': async () => {
        const prefs = service.preferences.get();
        return {
          folder: prefs.folder ?? suggestedFolder(),
          template: prefs.template,
          canChooseFolder: base.platform.chooseFolder !== undefined,
          canShowInFolder: base.platform.openPath !== undefined,
        };
      },
    },
    dispose: () => service.dispose(),
  };
}
