import type { NewProjectRequest } from '../../common/bridge/projects';
import type { templatesCalls } from '../../common/bridge/templates';
import {
  applyBrandKit,
  BrandKit,
  DEFAULT_BRAND_KIT,
  measuredBy,
  stylesToMeasure,
} from '../../common/composition/brand-kit';
import type { MediaSize, Project } from '../../common/composition/document';
import { createProject } from '../../common/composition/project-ops';
import { relinkToCatalogue, type CatalogueFacts } from '../../common/composition/templates';
import type { TextStyle } from '../../common/composition/text-style';
import type { DomainModule, HostBase, RecordStoreSpec } from '../host/types';
import type { TemplateLibrary } from './templates';

/** The data folder's brand kit: colours, fonts, a logo reference and bookend scenes (no secret). */
export const brandKitSpec: RecordStoreSpec<BrandKit> = {
  name: 'brand-kit',
  schema: BrandKit,
  defaults: DEFAULT_BRAND_KIT,
  version: 1,
};

export interface ProjectStarterDeps {
  templates: TemplateLibrary;
  brandKit: () => BrandKit;
  /** A text style's natural size (the rasteriser's layout with the font's metrics). */
  measure: (style: TextStyle) => Promise<MediaSize>;
  /** The active connection's avatars and voices; null when it cannot be asked (links then stay as saved). */
  catalogue: () => Promise<CatalogueFacts | null>;
  /** Where a template's media are copied for a new project (<data folder>/imports). */
  importsDir: string;
  log: HostBase['log'];
}

/**
 * The lists relinking a template needs: every avatar of the connection (all its pages, since an avatar
 * past the first page would otherwise be taken for one the connection lacks) and its voices.
 */
export interface CatalogueLists {
  everyAvatar(): Promise<ReadonlyArray<{ avatar_id: string; url: string; from?: number }>>;
  voices(query: object): Promise<ReadonlyArray<{ voice_id: string }>>;
}

/** A catalogue's avatars and voices as relinkToCatalogue reads them. */
export async function catalogueFactsOf(catalogue: CatalogueLists): Promise<CatalogueFacts> {
  return {
    avatars: (await catalogue.everyAvatar()).map((a) => ({
      avatarId: a.avatar_id,
      url: a.url,
      from: a.from === 3 ? 3 : 2,
    })),
    voices: (await catalogue.voices({})).map((v) => v.voice_id),
  };
}

/** Applies the kit after measuring every text style it will set (fonts differ in width). */
export async function brandProject(
  project: Project,
  kit: BrandKit,
  measure: ProjectStarterDeps['measure'],
): Promise<Project> {
  const styles = stylesToMeasure(project, kit);
  const sizes = await Promise.all(styles.map(measure));
  return applyBrandKit(project, kit, measuredBy(styles, sizes));
}

/**
 * The document of a new project made from a template and/or with the brand kit: the template's media
 * copied out and granted, the kit applied, then avatars and voices matched to the connection in use.
 */
export async function startProject(request: NewProjectRequest, deps: ProjectStarterDeps): Promise<Project> {
  let project = request.template
    ? await deps.templates.instantiate(request.template, deps.importsDir)
    : createProject({ id: 'new', kind: request.kind, output: request.size ?? request.preset });
  if (request.name) project = { ...project, name: request.name };
  if (request.brand) project = await brandProject(project, deps.brandKit(), deps.measure);
  const catalogue = await deps.catalogue().catch(() => null);
  if (!catalogue) return project;
  const relinked = relinkToCatalogue(project, catalogue);
  for (const note of relinked.notes) deps.log.info('template relinked', { note });
  return relinked.project;
}

export function createTemplatesDomain(
  base: Pick<HostBase, 'createStore'>,
  templates: TemplateLibrary,
): DomainModule<typeof templatesCalls> & { brandKit: () => BrandKit } {
  const brand = base.createStore(brandKitSpec);
  return {
    brandKit: () => brand.get(),
    handlers: {
      'templates.list': () => templates.list(),
      'templates.save': (project, options) => templates.save(project, options),
      'templates.remove': (id) => templates.remove(id),
      'brand.get': async () => brand.get(),
      'brand.set': async (kit) => {
        brand.set(kit);
        return brand.get();
      },
    },
  };
}
