import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { defineComponent, h, type Component } from 'vue';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createProject, DEFAULT_BRAND_KIT, type BrandKit } from '@common/composition';
import type { TemplateList, TemplateSummary } from '@common/bridge';
import { useStudioApi } from '@/bridge';
import NewProjectDialog from '@/views/editor/NewProjectDialog.vue';
import SaveTemplateDialog from '@/views/editor/SaveTemplateDialog.vue';
import BrandKitDialog from '@/views/editor/BrandKitDialog.vue';
import { fakeApi } from '../library/fake-api';

afterEach(() => {
  useStudioApi(undefined);
  document.body.innerHTML = '';
});

const summary = (patch: Partial<TemplateSummary>): TemplateSummary => ({
  id: 'starter:talking-head',
  name: 'Talking head',
  description: 'A presenter full frame.',
  starter: true,
  kind: 'avatar-video',
  output: { width: 1920, height: 1080 },
  scenes: 2,
  durationMs: 14000,
  thumbnail: 'data:image/jpeg;base64,AAAA',
  ...patch,
});

function show<P extends Record<string, unknown>>(
  component: Component,
  props: P,
  handlers: Record<string, (...args: never[]) => unknown>,
) {
  const fake = fakeApi(handlers as Record<string, (...args: unknown[]) => unknown>);
  useStudioApi(fake.api);
  const emitted: Array<[string, unknown[]]> = [];
  const listeners = Object.fromEntries(
    ['onCreate', 'onClose', 'onSaved'].map((k) => [k, (...args: unknown[]) => emitted.push([k, args])]),
  );
  mount(
    defineComponent({
      setup: () => () =>
        h(NMessageProvider, null, {
          default: () => h(NDialogProvider, null, { default: () => h(component, { ...props, ...listeners }) }),
        }),
    }),
    { attachTo: document.body },
  );
  const button = (label: string) => document.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  return { fake, emitted, button, text: () => document.body.textContent ?? '' };
}

describe('new project dialog: templates and the brand kit', () => {
  const list: TemplateList = {
    templates: [
      summary({}),
      summary({
        id: 'user:weekly-1a2b',
        name: 'Weekly',
        starter: false,
        thumbnail: null,
        output: { width: 1080, height: 1920 },
      }),
    ],
    unreadable: [
      {
        folder: '/data/templates/broken',
        error: 'The template in /data/templates/broken cannot be used: template.json is not valid JSON.',
      },
    ],
  };

  it('lists templates with thumbnails, names unreadable ones, and creates from the chosen one with the kit as the kit says', async () => {
    const { emitted, button, text } = show(
      NewProjectDialog,
      { show: true },
      { 'templates.list': () => list, 'brand.get': () => ({ ...DEFAULT_BRAND_KIT, applyToNewProjects: true }) },
    );
    await flushPromises();
    expect(document.querySelector<HTMLImageElement>('img[alt="First scene of Talking head"]')?.src).toBe(
      'data:image/jpeg;base64,AAAA',
    );
    expect(text()).toContain('No preview');
    expect(text()).toContain('template.json is not valid JSON');
    button('Template Weekly')!.click();
    await flushPromises();
    // The template's frame wins: the kind and size choices are gone, and the frame is said.
    expect(document.querySelector('[aria-label="Project kind"]')).toBeNull();
    expect(text()).toContain('1080×1920');
    expect(document.querySelector('[role="checkbox"]')?.getAttribute('aria-checked')).toBe('true');
    button('Create project')!.click();
    await flushPromises();
    expect(emitted).toEqual([
      [
        'onCreate',
        [
          {
            kind: 'avatar-video',
            preset: '16:9-1080p',
            size: undefined,
            name: undefined,
            template: 'user:weekly-1a2b',
            brand: true,
          },
        ],
      ],
    ]);
  });

  it('a blank project without the kit when the kit is not set to apply, and Blank after a template', async () => {
    const { emitted, button } = show(
      NewProjectDialog,
      { show: true },
      { 'templates.list': () => list, 'brand.get': () => DEFAULT_BRAND_KIT },
    );
    await flushPromises();
    button('Template Talking head')!.click();
    button('Blank project')!.click();
    await flushPromises();
    button('Create project')!.click();
    await flushPromises();
    expect(emitted[0][1][0]).toEqual({ kind: 'avatar-video', preset: '16:9-1080p', size: undefined, name: undefined });
  });

  it('says why templates could not be listed', async () => {
    const { text } = show(
      NewProjectDialog,
      { show: true },
      {
        'templates.list': () => {
          throw new Error('host gone');
        },
        'brand.get': () => DEFAULT_BRAND_KIT,
      },
    );
    await flushPromises();
    expect(text()).toContain('Templates could not be listed: host gone');
  });
});

describe('save as template', () => {
  const project = createProject({ id: 'p1', kind: 'avatar-video', output: '16:9-1080p', name: 'Weekly update' });

  it('draws the first scene as the thumbnail and saves with it', async () => {
    const saved = summary({ id: 'user:weekly', name: 'Weekly update', starter: false });
    const { fake, emitted, button } = show(
      SaveTemplateDialog,
      { show: true, project },
      {
        'preview.poster': () => ({ dataUrl: 'data:image/jpeg;base64,QUJD', width: 640, height: 360 }),
        'templates.save': () => saved,
      },
    );
    await flushPromises();
    expect(document.querySelector<HTMLImageElement>('img[alt="Thumbnail: the first scene"]')?.src).toBe(
      'data:image/jpeg;base64,QUJD',
    );
    button('Save template')!.click();
    await flushPromises();
    const save = fake.calls.find((c) => c.channel === 'templates.save')!;
    expect(save.args[1]).toEqual({
      name: 'Weekly update',
      description: undefined,
      thumbnail: 'data:image/jpeg;base64,QUJD',
    });
    expect(emitted).toEqual([['onSaved', [saved]]]);
  });

  it('saves without a thumbnail when the scene cannot be drawn, says so, and shows a refusal', async () => {
    const { fake, emitted, button, text } = show(
      SaveTemplateDialog,
      { show: true, project },
      {
        'preview.poster': () => {
          throw new Error('ffmpeg is missing');
        },
        'templates.save': () => {
          throw new Error('The template cannot keep /x.png: the studio was not given that file');
        },
      },
    );
    await flushPromises();
    expect(text()).toContain('No thumbnail: the first scene could not be drawn (ffmpeg is missing)');
    button('Save template')!.click();
    await flushPromises();
    expect(fake.calls.find((c) => c.channel === 'templates.save')!.args[1]).not.toHaveProperty('thumbnail');
    expect(text()).toContain('the studio was not given that file');
    expect(emitted).toEqual([]);
  });
});

describe('brand kit dialog', () => {
  const scene = { id: 'scene-1', durationMs: 3000, voice: null, elements: [], name: 'Sting' };
  const closing = { id: 'scene-3', durationMs: 4000, voice: null, elements: [], name: 'Thanks' };
  const scenes = [scene, { id: 'scene-2', durationMs: 8000, voice: null, elements: [] }, closing];
  const props = { show: true, scenes, currentSceneId: 'scene-2', output: { width: 1920, height: 1080 } };

  /** Picks a scene in the intro's or outro's list, as the user does. */
  async function pick(which: 'intro' | 'outro', label: string): Promise<void> {
    document.querySelector<HTMLElement>(`[aria-label="Scene for the ${which}"] .n-base-selection`)!.click();
    await flushPromises();
    // The newest menu is the open one (a closed menu's options may linger in the page while it fades).
    const option = [...document.querySelectorAll<HTMLElement>('.n-base-select-option')]
      .reverse()
      .find((o) => o.textContent?.startsWith(label));
    expect(
      option,
      `${label} in ${[...document.querySelectorAll('.n-base-select-option')].map((o) => o.textContent).join(' | ')}`,
    ).toBeDefined();
    option!.click();
    await flushPromises();
  }

  // Fails when the intro and outro can only come from the scene on the canvas (scene 2 here).
  it('keeps any scene of the project as the intro or outro and saves the kit (and asks to apply it when told)', async () => {
    const { fake, emitted, button, text } = show(BrandKitDialog, props, {
      'brand.get': () => DEFAULT_BRAND_KIT,
      'brand.set': (kit: BrandKit) => kit,
    });
    await flushPromises();
    const primary = document.querySelector<HTMLInputElement>('[aria-label="Brand primary colour"]')!;
    primary.value = '#e11d48';
    primary.dispatchEvent(new Event('input'));
    await pick('intro', 'Scene 1: Sting');
    expect(text()).toContain('Scene 2 · 8.0 s, 0 elements (on the canvas)');
    await pick('outro', 'Scene 3: Thanks');
    expect(text()).toContain('Thanks (0 elements, 4.0 s)');
    button('Save and apply brand kit')!.click();
    await flushPromises();
    const sent = fake.calls.find((c) => c.channel === 'brand.set')!.args[0] as BrandKit;
    expect(sent.colours.primary).toBe('#e11d48');
    expect(sent.intro).toEqual({
      name: 'Sting',
      output: { width: 1920, height: 1080 },
      scene: { ...scene, brand: undefined },
    });
    expect(sent.outro).toEqual({
      name: 'Thanks',
      output: { width: 1920, height: 1080 },
      scene: { ...closing, brand: undefined },
    });
    expect(emitted).toEqual([['onSaved', [sent, true]]]);
  });

  it('refuses a logo that is not a picture, by name, and keeps the kit as it was', async () => {
    const { fake, text } = show(BrandKitDialog, props, { 'brand.get': () => DEFAULT_BRAND_KIT });
    await flushPromises();
    // The page hands the file to the host (importFile), which says what it is.
    (fake.api as unknown as { importFile: unknown }).importFile = async () => ({
      ok: true,
      value: { url: 'file:///x/clip.mp4', name: 'clip.mp4', info: { kind: 'video', width: 640, height: 360 } },
    });
    const input = document.querySelector<HTMLInputElement>('[aria-label="Choose logo picture"]')!;
    Object.defineProperty(input, 'files', { value: [new File(['x'], 'clip.mp4', { type: 'video/mp4' })] });
    input.dispatchEvent(new Event('change'));
    await flushPromises();
    expect(text()).toContain('clip.mp4 is not a picture; a logo is a PNG or JPEG');
    expect(text()).toContain('No logo');
  });
});
