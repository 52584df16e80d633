// The caption at the playhead on the canvas: the preview's picture of it (drawn by the page's one
// rasteriser), shown only while the playhead is inside the scene the canvas shows, scaled with the frame.
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { until } from '../../wait';

vi.mock('@/text/page-rasteriser', () => ({
  pageRasteriser: () => ({
    layout: async (style: { content: string; fontSize: number }) => ({
      width: style.content.length * style.fontSize * 0.5,
      height: style.fontSize * 1.4,
      lines: [{ width: style.content.length * style.fontSize * 0.5 }],
      box: null,
    }),
    rasterise: async (style: { content: string }, pixels: { width: number; height: number }) => {
      if (style.content === 'Cannot draw') throw new Error('no font has these letters');
      return { png: new Uint8Array([137, 80, 78, 71]), width: pixels.width, height: pixels.height };
    },
  }),
}));

import { addScene, createProject, type Project } from '@common/composition';
import { setCaptionSettings, setSceneCaptions } from '@common/captions/caption-ops';
import { useCuePictures } from '@/captions/cue-pictures';
import CanvasCaption from '@/canvas/CanvasCaption.vue';

function twoScenes(): Project {
  let project = createProject({ id: 'p', kind: 'avatar-video', output: '16:9-1080p', name: 'Captioned' });
  project = setSceneCaptions(project, 'scene-1', [
    { text: 'Hello there', startMs: 200, endMs: 1400 },
    { text: 'Cannot draw', startMs: 1500, endMs: 2500 },
  ]);
  project = addScene(project);
  return setSceneCaptions(project, project.scenes[1].id, [{ text: 'Second scene', startMs: 300, endMs: 900 }]);
}

describe('captions on the canvas', () => {
  it('shows the caption at the playhead inside the shown scene, and why one cannot be drawn', async () => {
    const project = twoScenes();
    const first = { startMs: 0, endMs: project.scenes[0].durationMs };
    const second = { startMs: first.endMs, endMs: first.endMs + project.scenes[1].durationMs };
    const { shownAt } = useCuePictures(() => project);
    await until('the caption at 0.5 s to be drawn', () => shownAt(500).picture !== null);
    const hello = shownAt(500, first).picture!;
    // Centred across the 1920-wide frame, near its foot.
    expect(Math.abs(hello.x + hello.width / 2 - 960)).toBeLessThanOrEqual(1);
    expect(hello.y).toBeGreaterThan(540);
    expect(shownAt(1450, first)).toEqual({ picture: null, failure: null });
    await until('the caption at 2 s to fail to draw', () => shownAt(2000, first).failure !== null);
    expect(shownAt(2000, first).failure).toBe('no font has these letters');
    await until("the second scene's caption to be drawn", () => shownAt(second.startMs + 500, second).picture !== null);
    // The playhead in the second scene while the canvas shows the first: nothing from another scene.
    expect(shownAt(second.startMs + 500, first).picture).toBeNull();
  });

  it('follows the captions option: none when they are turned off', async () => {
    const project = setCaptionSettings(twoScenes(), { showInPreview: false });
    const { shownAt } = useCuePictures(() => project);
    // The same captions with the option on, asked for after: the mock rasteriser draws every caption
    // in the same few steps, so once these are drawn, any the first had asked for would be drawn too.
    const on = useCuePictures(() => twoScenes());
    await until('the captions of the project with them on to be drawn', () => on.shownAt(500).picture !== null);
    expect(shownAt(500)).toEqual({ picture: null, failure: null });
  });

  it('is placed and scaled with the frame on the stage, and never takes a click', () => {
    const picture = { href: 'data:image/png;base64,AAAA', x: 700, y: 900, width: 520, height: 80 };
    const wrapper = mount(CanvasCaption, {
      props: { shown: { picture, failure: null }, viewport: { scale: 0.5, x: 24, y: 30 } },
    });
    const img = wrapper.get('img[aria-label="Caption at the playhead"]');
    expect(img.attributes('style')).toBe('left: 374px; top: 480px; width: 260px; height: 40px; pointer-events: none;');
    const failing = mount(CanvasCaption, {
      props: { shown: { picture: null, failure: 'no font has these letters' }, viewport: { scale: 1, x: 0, y: 0 } },
    });
    expect(failing.get('[role="alert"]').text()).toBe('This caption cannot be drawn: no font has these letters');
  });
});
