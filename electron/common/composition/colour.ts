import { z } from 'zod';

/** A colour as the document stores it: six hex digits, no alpha (opacity is a field of its own). */
export const HexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #1a2b3c');
