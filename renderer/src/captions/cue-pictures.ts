// The project's captions drawn by the one text rasteriser (the pictures a burned-in copy gets), kept by
// what they show, for the preview's overlay and the canvas's: every caption is drawn ahead, so none
// appears late while playing.
import { computed, shallowReactive, watch } from 'vue';
import { captionSettingsOf, cueAt, projectCues } from '@common/captions/caption-ops';
import { drawCue } from '@common/captions/caption-pictures';
import type { Project } from '@common/composition';
import { pageRasteriser } from '@/text/page-rasteriser';

/** A caption's picture in output pixels, placed in the frame. */
export interface DrawnCue {
  href: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What shows at a moment: the drawn caption, or why it cannot be drawn; both null between captions. */
export interface CueShown {
  picture: DrawnCue | null;
  failure: string | null;
}

export function useCuePictures(project: () => Project) {
  const settings = computed(() => captionSettingsOf(project()));
  const cues = computed(() => (settings.value.showInPreview ? projectCues(project()) : []));
  const output = computed(() => project().output);
  // An empty error marks a caption still being drawn.
  const pictures = shallowReactive(new Map<string, DrawnCue | { error: string }>());
  const keyOf = (text: string): string =>
    JSON.stringify([settings.value, output.value.width, output.value.height, text]);

  watch(
    cues,
    (list) => {
      for (const cue of list) {
        const key = keyOf(cue.text);
        if (pictures.has(key)) continue;
        pictures.set(key, { error: '' });
        drawCue(pageRasteriser(), settings.value, cue.text, output.value).then(
          (p) =>
            pictures.set(key, {
              href: `data:image/png;base64,${base64Of(p.png)}`,
              x: p.x,
              y: p.y,
              width: p.width,
              height: p.height,
            }),
          (error: unknown) => pictures.set(key, { error: (error as Error).message }),
        );
      }
    },
    { immediate: true },
  );

  /** The caption at `atMs` on the project's clock; `within` keeps only captions inside that span. */
  function shownAt(atMs: number, within?: { startMs: number; endMs: number }): CueShown {
    const cue = cueAt(cues.value, atMs);
    if (!cue || (within && (cue.startMs < within.startMs || cue.startMs >= within.endMs)))
      return { picture: null, failure: null };
    const picture = pictures.get(keyOf(cue.text));
    if (!picture) return { picture: null, failure: null };
    return 'error' in picture ? { picture: null, failure: picture.error || null } : { picture, failure: null };
  }

  return { output, shownAt };
}

function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
