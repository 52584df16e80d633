import type { projectsCalls } from '../../common/bridge/projects';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import { ProjectLibrary } from './project-library';
import type { NewProjectRequest } from '../../common/bridge/projects';
import type { Project } from '../../common/composition/document';

const EXTENSIONS = ['json'];

/** Makes the document of a new project from a template or with the brand kit (templates-domain.ts). */
export type ProjectStarter = (request: NewProjectRequest) => Promise<Project>;

export function createProjectsDomain(
  base: Pick<HostBase, 'createStore' | 'dataDir' | 'log' | 'platform'>,
  library = new ProjectLibrary({ dataDir: base.dataDir, createStore: base.createStore }),
  starter?: ProjectStarter,
): DomainModule<typeof projectsCalls> {
  const dialogs = Boolean(base.platform.chooseOpenPath && base.platform.chooseSavePath);
  return {
    handlers: {
      'projects.listRecent': () => library.listRecent(),
      'projects.names': async (ids) =>
        Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await library.nameOf(id)] as const))),
      'projects.capabilities': async () => ({ dialogs }),
      'projects.create': async (request) =>
        starter && (request.template || request.brand)
          ? library.adopt(await starter(request))
          : library.create(request),
      'projects.open': (id) => library.open(id),
      'projects.openDialog': async () => {
        const choose = base.platform.chooseOpenPath;
        if (!choose)
          throw new StudioError('This host has no file dialogs; import the project JSON instead.', 'no-dialogs');
        const path = await choose({ title: 'Open project', extensions: EXTENSIONS });
        return path ? library.openFile(path) : null;
      },
      'projects.importJson': (text) => library.importJson(text),
      'projects.save': async (project) => {
        const summary = await library.save(project);
        base.log.info('project saved', { id: project.id, scenes: project.scenes.length });
        return summary;
      },
      'projects.saveAs': async (project, options) => {
        const choose = base.platform.chooseSavePath;
        if (!choose) return library.saveAs(project, { name: options.name });
        const path = await choose({
          title: 'Save project as',
          defaultName: `${options.name ?? project.name}.json`,
          extensions: EXTENSIONS,
        });
        return path ? library.saveAs(project, { path, name: options.name }) : null;
      },
      'projects.autosave': (project) => library.autosave(project),
      'projects.listRecovery': () => library.listRecovery(),
      'projects.restoreRecovery': (id) => library.restoreRecovery(id),
      'projects.discardRecovery': (id) => library.discardRecovery(id),
      'projects.forget': async (id) => library.forget(id),
    },
  };
}
