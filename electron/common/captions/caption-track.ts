import { z } from 'zod';
import { DEFAULT_TEXT_STYLE, TextStyle } from '../composition/text-style';

/**
 * The project's caption track: each scene keeps its cues (times inside the scene), the project keeps
 * one caption look (a text element's style, so captions are drawn by the one rasteriser), where they
 * sit in the frame, and whether subtitle files go beside downloaded results.
 */
export const MAX_CUE_CHARS = 400;

export const CaptionCue = z
  .object({
    text: z.string().max(MAX_CUE_CHARS),
    startMs: z.number().int().min(0),
    endMs: z.number().int().min(1),
  })
  .refine((cue) => cue.endMs > cue.startMs, { message: 'a cue must end after it starts', path: ['endMs'] });
export type CaptionCue = z.infer<typeof CaptionCue>;

export const CaptionPosition = z.enum(['bottom', 'middle', 'top']);
export type CaptionPosition = z.infer<typeof CaptionPosition>;

export const CaptionSettings = z.object({
  /** How a cue looks; `content` is unused (each cue brings its words), `wrapWidth` is a share of the frame's width. */
  style: TextStyle,
  position: CaptionPosition,
  /** Distance from the frame's edge (top or bottom), as a share of the frame's height. */
  margin: z.number().min(0).max(0.45),
  /** Lines wrap at this share of the frame's width. */
  widthShare: z.number().min(0.2).max(1),
  /** Write `<result>.srt` and `<result>.vtt` beside each downloaded result of this project. */
  besideDownloads: z.boolean(),
  /** Captions are drawn over the local preview and on the canvas at the playhead. */
  showInPreview: z.boolean(),
});
export type CaptionSettings = z.infer<typeof CaptionSettings>;

/** Sizes in the style are for a 1920-pixel-wide frame and scale with the frame (as text presets do). */
export const CAPTION_REFERENCE_WIDTH = 1920;

export const DEFAULT_CAPTION_SETTINGS: CaptionSettings = {
  style: {
    ...DEFAULT_TEXT_STYLE,
    content: '',
    fontWeight: 700,
    fontSize: 54,
    lineHeight: 1.2,
    shadow: null,
    outline: null,
    box: { colour: '#000000', opacity: 0.72, padding: 14, radius: 8 },
  },
  position: 'bottom',
  margin: 0.08,
  widthShare: 0.8,
  besideDownloads: true,
  showInPreview: true,
};
