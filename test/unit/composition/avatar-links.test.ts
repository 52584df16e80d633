// An avatar chosen from a catalogue is sent with its link in the sending connection's catalogue (by its id),
// so a project made on one connection (a folder's built-in sandbox, whose port passes with its process) is
// sent whole on another; a link the user gave is sent as it is.
import { describe, expect, it } from 'vitest';
import {
  avatarLinksOf,
  exportBody,
  projectLinks,
  relinkToCatalogue,
  withCatalogueAvatars,
  type Project,
  type SceneElement,
} from '@common/composition';
import { fillTemplate } from '@common/campaign/variables';
import { loadProject, starter } from './helpers';

const made = 'http://127.0.0.1:46527/catalogue/SandboxBen.mp4';
const sending = avatarLinksOf([
  { avatar_id: 'SandboxBen', url: 'http://127.0.0.1:4780/catalogue/SandboxBen.mp4', from: 2 },
  { avatar_id: 'Mine', url: 'https://cdn.example/mine.mp4', from: 3 },
]);

function withAvatar(element: Partial<SceneElement>): Project {
  const project = loadProject('two-scenes.project.json');
  const scenes = project.scenes.map((scene, i) =>
    i > 0
      ? scene
      : {
          ...scene,
          elements: scene.elements.map((e) => (e.type === 'avatar' ? { ...e, ...element } : e)),
        },
  );
  return { ...project, scenes };
}

const avatarOf = (project: Project) => project.scenes[0].elements.find((e) => e.type === 'avatar');
const sentUrl = (project: Project) => {
  const exported = exportBody(project, {
    target: 'avatar-video',
    avatars: sending,
    placement: { anchor: 'top-left', scale: 'frame' },
  });
  if (!exported.ok) throw new Error(JSON.stringify(exported.problems));
  const body = exported.body as { data: { elements: { type: string; url: string }[] }[] };
  return body.data[0].elements.find((e) => e.type === 'avatar')?.url;
};

describe("an avatar's link", () => {
  it("chosen from a catalogue, is sent with the sending connection's link for its id", () => {
    const project = withAvatar({ avatarId: 'SandboxBen', url: made, avatarFrom: 2, urlFrom: 'catalogue' });
    expect(sentUrl(project)).toBe('http://127.0.0.1:4780/catalogue/SandboxBen.mp4');
    // Without the sending connection's catalogue, nothing changes.
    expect(withCatalogueAvatars(project, undefined)).toBe(project);
  });

  it('given by the user, is sent as it is', () => {
    const project = withAvatar({ avatarId: 'SandboxBen', url: 'https://cdn.example/own.mp4', urlFrom: undefined });
    expect(sentUrl(project)).toBe('https://cdn.example/own.mp4');
  });

  it("of an avatar the sending connection lacks, stays (the check names the avatar), and takes the catalogue's origin when found", () => {
    const missing = withAvatar({ avatarId: 'Gone', url: made, urlFrom: 'catalogue' });
    expect(withCatalogueAvatars(missing, sending)).toBe(missing);
    const upload = withCatalogueAvatars(withAvatar({ avatarId: 'Mine', url: made, urlFrom: 'catalogue' }), sending);
    expect(avatarOf(upload)).toMatchObject({ url: 'https://cdn.example/mine.mp4', avatarFrom: 3 });
  });

  it("is marked as the catalogue's when a project is made from a template, and left out of the link check", () => {
    const { project } = relinkToCatalogue(starter('talking-head'), {
      avatars: [{ avatarId: 'Mine', url: made, from: 3 }],
      voices: [],
    });
    expect(avatarOf(project)).toMatchObject({ url: made, urlFrom: 'catalogue' });
    // An uploaded avatar's link is checked when it is the user's own, not when a catalogue gave it.
    expect(projectLinks(project).map((l) => l.url)).not.toContain(made);
    const own = withAvatar({ avatarId: 'Mine', avatarFrom: 3, url: made, urlFrom: undefined });
    expect(projectLinks(own).map((l) => l.url)).toContain(made);
  });

  it("given by a campaign's row, is the user's own", () => {
    const project = withAvatar({ avatarId: 'SandboxBen', url: '{{clip}}', urlFrom: 'catalogue' });
    const filled = fillTemplate({ project, fileName: 'x' }, { clip: 'https://cdn.example/row.mp4' }, { row: '1' });
    expect(avatarOf(filled.project)?.urlFrom).toBeUndefined();
    expect(sentUrl(filled.project)).toBe('https://cdn.example/row.mp4');
    // A row that names only the avatar keeps the catalogue's link, its own avatar's in the sending catalogue.
    const byId = withAvatar({ avatarId: '{{who}}', url: made, urlFrom: 'catalogue' });
    const row = fillTemplate({ project: byId, fileName: 'x' }, { who: 'Mine' }, { row: '1' });
    expect(sentUrl(row.project)).toBe('https://cdn.example/mine.mp4');
  });
});
