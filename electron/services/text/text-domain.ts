import { join } from 'node:path';
import type { textCalls } from '../../common/bridge/text';
import { SYSTEM_FONT_PREFIX, useSystemFonts } from '../../common/composition/text-style';
import { StudioError } from '../host/errors';
import { addOwnFont, ownFontsDir } from './own-fonts';
import type { DomainModule } from '../host/types';
import { sharedSystemFonts, type SystemFonts } from './system-fonts';
import { bundledFontsDir, TextPictures } from './text-pictures';

/** The text.* calls: font files for the page's rasteriser, and pictures of text elements for submit. */
export function createTextDomain(
  pictures: TextPictures,
  systemFonts: SystemFonts = sharedSystemFonts(),
  dataDir?: string,
): DomainModule<typeof textCalls> {
  return {
    handlers: {
      'text.addFont': async ({ name, base64 }) => {
        if (!dataDir) throw new StudioError('This studio keeps no fonts of its own.', 'invalid-font');
        try {
          const face = await addOwnFont(ownFontsDir(dataDir), name, Buffer.from(base64, 'base64'), systemFonts);
          // This process's rasterisers read the catalogue once: the new face is made known to them now.
          useSystemFonts((await systemFonts.list()).faces);
          return face;
        } catch (error) {
          throw new StudioError((error as Error).message, 'invalid-font');
        }
      },
      'text.systemFonts': async () => {
        const scan = await systemFonts.list();
        return { faces: scan.faces, skipped: scan.skipped.length, capped: scan.capped };
      },
      'text.font': async (file) => {
        const base64 = (await pictures.font(file)).toString('base64');
        // A system face's fingerprint goes with its bytes: the page records it in the project.
        return file.startsWith(SYSTEM_FONT_PREFIX)
          ? { base64, sha256: await systemFonts.sha256(file.slice(SYSTEM_FONT_PREFIX.length)) }
          : { base64 };
      },
      'text.picture': async ({ style, width, height }) => {
        const picture = await pictures.picture(style, { width, height });
        return { url: picture.url, width: picture.width, height: picture.height };
      },
    },
  };
}

/** The host's text pictures, kept under `<dataDir>/media/text`. */
export function createTextPictures(dataDir: string, grant: (path: string) => string): TextPictures {
  // The fonts the user added to this data folder draw like this computer's (the canvas, previews, results).
  sharedSystemFonts().include(ownFontsDir(dataDir));
  return new TextPictures({
    dir: join(dataDir, 'media', 'text'),
    fontsDir: bundledFontsDir(),
    grant,
    systemFonts: sharedSystemFonts(),
  });
}
