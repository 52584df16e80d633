import { z } from 'zod';

/** The weights the studio's text draws: regular and bold (script-fonts.ts picks files by them too). */
export const FONT_WEIGHTS = [400, 700] as const;
export const FontWeight = z.union([z.literal(400), z.literal(700)]);
export type FontWeight = z.infer<typeof FontWeight>;
