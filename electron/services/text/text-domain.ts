import { join } from 'node:path';
import type { textCalls } from '../../common/bridge/text';
import { SYSTEM_FONT_PREFIX } from '../../common/composition/text-style';
import type { DomainModule } from '../host/types';
import { sharedSystemFonts, type SystemFonts } from './system-fonts';
import { bundledFontsDir, TextPictures } from './text-pictures';

/** The text.* calls: font files for the page's rasteriser, and pictures of text elements for submit. */
export function createTextDomain(
  pictures: TextPictures,
  systemFonts: SystemFonts = sharedSystemFonts(),
): DomainModule<typeof textCalls> {
  return {
    handlers: {
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
  return new TextPictures({
    dir: join(dataDir, 'media', 'text'),
    fontsDir: bundledFontsDir(),
    grant,
    systemFonts: sharedSystemFonts(),
  });
}
