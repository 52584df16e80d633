// A brand's own font file, in Chromium against the web host: a file that is not a font is refused by
// name, a TTF is added from the text inspector, and the title on the canvas is drawn in it.
import { readFileSync } from 'node:fs';
import { copyFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, screenshot, type StudioSession } from './browser';

const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

describe('own font files', () => {
  let studio: StudioSession;
  beforeAll(async () => {
    studio = await openStudio({ hash: '#/editor' });
  }, 60_000);
  afterAll(() => studio?.close());

  it('refuses a PNG by name, adds a TTF, and draws the title in it', async () => {
    const { page } = studio;
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByText('Title', { exact: true }).click();
    const input = page.getByTestId('add-font-input');
    await input.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
    });
    await page.getByText('"logo.png" is not a font file (TTF, OTF or WOFF2): it was not added.').waitFor();
    await input.setInputFiles({ name: 'BrandSans-Bold.ttf', mimeType: 'font/ttf', buffer: readFileSync(DEJAVU_SANS) });
    await page.getByText(/^Added DejaVu Sans/).waitFor();
    await expect.poll(() => page.getByRole('group', { name: 'Text style' }).textContent()).toContain('DejaVu Sans');
    copyFileSync(await screenshot(page, 'own-font-added'), '/tmp/own-font-added.png');
  }, 120_000);
});
