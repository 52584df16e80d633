import { isCallChannel } from '@common/bridge';
import { call } from '@/bridge';
import type { ProjectsApi } from './editor-files';

/** The projects service through the bridge; null on a host that does not offer it. */
export function bridgeProjects(): ProjectsApi | null {
  if (!isCallChannel('projects.save')) return null;
  return {
    capabilities: () => call('projects.capabilities'),
    listRecent: () => call('projects.listRecent'),
    create: (request) => call('projects.create', request),
    open: (id) => call('projects.open', id),
    openDialog: () => call('projects.openDialog'),
    importJson: (text) => call('projects.importJson', text),
    save: (project) => call('projects.save', project),
    saveAs: (project, options) => call('projects.saveAs', project, options),
    autosave: (project) => call('projects.autosave', project),
    listRecovery: () => call('projects.listRecovery'),
    restoreRecovery: (id) => call('projects.restoreRecovery', id),
    discardRecovery: (id) => call('projects.discardRecovery', id),
  };
}
