import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../../services/projects/atomic-file';
import { isAbsolute, join, resolve } from 'node:path';
import { Project } from '../../common/composition/document';
import { defaultDataDir } from '../../services/host/data-dir';
import { LocalGrants, localGrantsSpec } from '../../services/media/local-grants';
import { brandKitSpec, catalogueFactsOf, startProject } from '../../services/projects/templates-domain';
import { starterTemplatesDir, TemplateLibrary } from '../../services/projects/templates';
import { createTextPictures } from '../../services/text/text-domain';
import type { TemplateSummary } from '../../common/bridge/templates';
import type { Notice } from '../../common/bridge/system';
import type { RecordStoreFactory } from '../../services/host/types';
import { createConfStoreFactory } from '../../services/store/conf-store';
import { everyAvatar } from '../../services/catalogue/every-avatar';
import { namedBy, withStudio } from '../cli-host';
import { folderExists } from '../../services/host/data-folder-state';
import { createMemoryStoreFactory } from '../../services/store/memory-store';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { JSON_OPTION } from '../common-options';

/** The data folder's templates (and the starters), as the app lists them; local files granted in the data folder's record. */
function templatesIn(
  args: ParsedArgs,
  io: CliIo,
  { onlyReads = false } = {},
): { library: TemplateLibrary; createStore: RecordStoreFactory; grants: LocalGrants; dataDir: string } {
  const dataDir = flag(args, '--data-dir') ?? defaultDataDir(io.env);
  // A file in the folder's place is named (exit 4); a list on a folder not made yet creates none.
  const exists = folderExists(dataDir, namedBy(args, io));
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m: string) => io.err(`[warn] ${m}`),
    error: (m: string) => io.err(`[error] ${m}`),
  };
  const deps = { log, notify: (n: Notice) => io.err(`${n.title}${n.detail ? `: ${n.detail}` : ''}`) };
  const createStore = onlyReads && !exists ? createMemoryStoreFactory(deps) : createConfStoreFactory(dataDir, deps);
  const grants = new LocalGrants(createStore(localGrantsSpec));
  const library = new TemplateLibrary({
    dataDir,
    startersDir: starterTemplatesDir(),
    pathOf: (url) => grants.pathOf(url),
    grant: (path) => grants.grant(path),
  });
  return { library, createStore, grants, dataDir };
}

/** A template named on the command line: its id, its folder name or its name (any case). */
function findTemplate(templates: readonly TemplateSummary[], wanted: string): TemplateSummary {
  const key = wanted.trim().toLowerCase();
  const found = templates.find(
    (t) => t.id.toLowerCase() === key || t.id.split(':')[1]?.toLowerCase() === key || t.name.toLowerCase() === key,
  );
  if (!found)
    throw new UsageError(
      `No template "${wanted}"; \`studio templates list\` names them (${templates.map((t) => t.id.split(':')[1]).join(', ')})`,
    );
  return found;
}

/** `studio templates list [--json]`. */
export const templatesListCommand: CliCommand = {
  name: 'templates list',
  summary: 'list the starter templates and the ones saved in the data folder',
  options: [JSON_OPTION],
  async run(args, io) {
    const { templates, unreadable } = await templatesIn(args, io, { onlyReads: true }).library.list();
    if (args.flags['--json'])
      io.out(JSON.stringify({ templates: templates.map(({ thumbnail: _t, ...rest }) => rest), unreadable }, null, 2));
    else {
      for (const t of templates)
        io.out(
          `${t.id.split(':')[1]}  ${t.name}  ${t.output.width}x${t.output.height}  ${t.scenes} scene${t.scenes === 1 ? '' : 's'}  ${t.starter ? 'starter' : 'yours'}`,
        );
      io.err(`${templates.length} templates (folder, name, frame, scenes, whose)`);
    }
    for (const u of unreadable) io.err(`  unreadable  ${u.error}`);
    return EXIT.ok;
  },
};

/** `studio project new --template NAME --out FILE.json [--name N] [--brand] [--force]`. */
export const projectNewCommand: CliCommand = {
  name: 'project new',
  summary: 'write a new project file from a template, with the brand kit if asked',
  options: [
    { name: '--template', value: 'NAME', help: "a template's folder or name (see templates list)", required: true },
    { name: '--out', value: 'FILE.json', help: 'where to write the project', required: true },
    { name: '--name', value: 'NAME', help: "the project's name (default: the template's)" },
    { name: '--brand', help: "apply the data folder's brand kit" },
    { name: '--force', help: 'replace FILE.json if it exists' },
    JSON_OPTION,
  ],
  async run(args, io) {
    const out = flag(args, '--out')!;
    const path = isAbsolute(out) ? out : resolve(io.cwd, out);
    if (existsSync(path) && args.flags['--force'] !== true)
      throw new UsageError(`${out} exists; give --force to replace it`);
    const { library, createStore, grants, dataDir } = templatesIn(args, io);
    const template = findTemplate((await library.list()).templates, flag(args, '--template')!);
    const pictures = createTextPictures(dataDir, (file) => grants.grant(file));
    // The avatars and voices the template names are matched to the connection's catalogue (the sandbox unless told otherwise).
    return withStudio(args, io, 'reads', async (studio) => {
      const project = await startProject(
        {
          kind: template.kind,
          preset: '16:9-1080p',
          template: template.id,
          name: flag(args, '--name'),
          brand: args.flags['--brand'] === true,
        },
        {
          templates: library,
          brandKit: () => createStore(brandKitSpec).get(),
          measure: async (style) => {
            const { width, height } = await pictures.rasteriser.layout(style);
            return { width, height };
          },
          catalogue: () =>
            catalogueFactsOf({
              everyAvatar: () => everyAvatar({ avatars: (query) => studio.call('catalogue.avatars', query) }),
              voices: (query) => studio.call('catalogue.voices', query),
            }),
          importsDir: join(dataDir, 'imports'),
          log: {
            debug: () => undefined,
            info: (message, fields) => io.err(`  note  ${String(fields?.note ?? message)}`),
            warn: (m) => io.err(`[warn] ${m}`),
            error: (m) => io.err(`[error] ${m}`),
          },
        },
      );
      const checked = Project.parse({ ...project, id: `cli-${Date.now().toString(36)}` });
      await writeFileAtomic(path, `${JSON.stringify(checked, null, 2)}\n`);
      if (args.flags['--json'])
        io.out(
          JSON.stringify(
            { path, template: template.id, scenes: checked.scenes.length, branded: args.flags['--brand'] === true },
            null,
            2,
          ),
        );
      else
        io.out(
          `${path}  ${checked.name}  from ${template.name}${args.flags['--brand'] === true ? ', brand kit applied' : ''}`,
        );
      return EXIT.ok;
    });
  },
};

export const templatesCommands = [templatesListCommand, projectNewCommand];
