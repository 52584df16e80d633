// Where the e2e tests find Chromium and how they start it. Nothing is ever downloaded.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else a browser Playwright already installed. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const installed = chromium.executablePath();
  if (installed && existsSync(installed)) return installed;
  throw new Error('No Chromium found: install Debian\'s chromium package or set CHROMIUM_PATH (nothing is downloaded)');
}
