// Start-up, measured: the web host launched as `npm run web` launches it, on a fresh data folder (cold)
// and again on the same folder (warm), with Chromium (already running) opening the studio at once.
// Reports, from the launch: the host serving a static file (the baseline: nothing can be faster than
// the host being up), the shell usable (the workspace navigation on screen) and the Editor listing the
// sandbox's avatars. The page is built beforehand, as an install or build does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureRendererBuilt } from '../../electron/web/build-renderer';
import { launchBrowser } from '../e2e/browser';
import { buildWebBundle, webBundleIsStale } from '../../electron/launch/web-bundle.mjs';

const root = join(import.meta.dirname, '..', '..');
const COLD_AIM_S = 3;
const WARM_AIM_S = 1;

interface Timing {
  label: string;
  staticPage: number;
  shell: number;
  avatars: number;
  phases: string[];
}

function launchHost(dataDir: string): { child: ChildProcess; url: Promise<string>; phases: string[] } {
  const started = performance.now();
  const phases: string[] = [];
  const child = spawn(process.execPath, [join(root, 'electron/launch/web.mjs'), '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { PATH: process.env.PATH, STUDIO_STARTUP_TRACE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The host's own start-up trace (STUDIO_STARTUP_TRACE) says where its time goes.
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('startup:')) phases.push(`${line.slice(9).trim()} (+${((performance.now() - started) / 1000).toFixed(2)} s)`);
  });
  const url = new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /Avatar Studio is at (\S+)/.exec(buffer);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the web host exited with ${code}`)));
  });
  return { child, url, phases };
}

async function measure(browser: Browser, dataDir: string, label: string): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const started = performance.now();
  const host = launchHost(dataDir);
  const seconds = (): number => (performance.now() - started) / 1000;
  try {
    const url = await host.url;
    const origin = new URL(url).origin;
    const answer = await fetch(`${origin}/favicon.svg`).catch(() => fetch(origin));
    const staticPage = seconds();
    if (!answer.ok && answer.status !== 401 && answer.status !== 403) throw new Error(`the host answered ${answer.status} for a static file`);
    await page.goto(url);
    await page.getByRole('navigation', { name: 'Workspaces' }).waitFor();
    const shell = seconds();
    await page.getByRole('button', { name: /^Add avatar / }).first().waitFor({ timeout: 60_000 });
    const avatars = seconds();
    return { label, staticPage, shell, avatars, phases: host.phases };
  } finally {
    await context.close();
    host.child.kill('SIGTERM');
    await new Promise((resolve) => {
      if (host.child.exitCode !== null) resolve(null);
      else host.child.once('exit', resolve);
    });
  }
}

export async function run(): Promise<void> {
  await ensureRendererBuilt(root);
  if (webBundleIsStale(root)) await buildWebBundle(root);
  const browser = await launchBrowser();
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-startup-'));
  try {
    const cold = await measure(browser, dataDir, 'cold (fresh data folder)');
    const warm = await measure(browser, dataDir, 'warm (same folder again)');
    console.log(`web host launched as \`npm run web\`; Chromium already running; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`);
    console.log(`${'start'.padEnd(26)} ${'static file'.padStart(12)} ${'shell usable'.padStart(13)} ${'avatars listed'.padStart(15)}`);
    for (const t of [cold, warm]) {
      console.log(`${t.label.padEnd(26)} ${t.staticPage.toFixed(2).padStart(10)} s ${t.shell.toFixed(2).padStart(11)} s ${t.avatars.toFixed(2).padStart(13)} s   (${(t.shell / t.staticPage).toFixed(2)}x / ${(t.avatars / t.staticPage).toFixed(2)}x the static file)`);
    }
    for (const t of [cold, warm]) if (t.phases.length) console.log(`${t.label}: ${t.phases.join(', ')}`);
    console.log(`aim cold start to avatars listed <= ${COLD_AIM_S} s: ${cold.avatars <= COLD_AIM_S ? 'met' : 'NOT met'} (${cold.avatars.toFixed(2)} s)`);
    console.log(`aim warm start to avatars listed <= ${WARM_AIM_S} s: ${warm.avatars <= WARM_AIM_S ? 'met' : 'NOT met'} (${warm.avatars.toFixed(2)} s)`);
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
