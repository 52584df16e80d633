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
  // Every browser context opens a window, and each window started a renderer of its own for the
  // omnibox's WebUI popups that a headless test never shows: about 0.7 CPU-s per context, most of a
  // studio page's start-up cost. Chromium reads one --disable-features, so the list repeats what
  // Playwright turns off itself (playwright-core 1.65) after the popups.
  `--disable-features=${[
    'WebUIOmniboxPopup',
    'WebUIOmniboxAimPopup',
    'WebUIOmniboxFullPopup',
    'AvoidUnnecessaryBeforeUnloadCheckSync',
    'DestroyProfileOnBrowserClose',
    'HttpsUpgrades',
    'HttpsFirstBalancedModeAutoEnable',
    'LensOverlay',
    'MediaRouter',
    'PaintHolding',
    'ThirdPartyStoragePartitioning',
    'AvoidCorsURLLoaderRestartOnRedirect',
    'TcpPortRandomizationWin',
    'OptimizationHints',
    'NetworkTimeServiceQuerying',
    'AimEnabled',
    'PreconnectToSearch',
  ].join(',')}`,
];

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else a browser Playwright already installed. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const installed = chromium.executablePath();
  if (installed && existsSync(installed)) return installed;
  throw new Error("No Chromium found: install Debian's chromium package or set CHROMIUM_PATH (nothing is downloaded)");
}
