// BENCH_RECORDS_PROFILE=DIR: the page's CPU profile of each Library step the records bench times, written
// to DIR as `<label>-<step>.cpuprofile` (open it in Chromium's DevTools, Performance tab), with the
// longest busy stretch of each profile and the functions that spent its time printed beside the figures;
// and a trace of the same step, from which the page's longest tasks are printed as wall time and as the
// main thread's own CPU time (on a loaded machine a task's wall time is mostly waiting for a core).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
}

/** The page's longest tasks in a trace: wall and CPU ms, longest wall first. */
export function longestTasks(events: TraceEvent[], marker: string, top = 5): string[] {
  const mark = events.find((e) => e.name === marker);
  if (!mark) return ['(the page was not found in the trace)'];
  return events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === mark.pid && e.tid === mark.tid)
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, top)
    .map((e) => `${((e.dur ?? 0) / 1000).toFixed(0)} ms (CPU ${((e.tdur ?? 0) / 1000).toFixed(0)} ms)`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)']);

/**
 * The longest stretch of samples that are not idle (a main-thread task, near enough), and the
 * functions with the most self time in it.
 */
export function longestStretch(profile: Profile, top = 12): { ms: number; heaviest: string[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let best: [number, number] = [0, 0];
  let bestMs = 0;
  let start = -1;
  let ms = 0;
  profile.samples.forEach((id, i) => {
    const idle = IDLE.has(byId.get(id)?.callFrame.functionName ?? '');
    if (idle) {
      if (start >= 0 && ms > bestMs) [bestMs, best] = [ms, [start, i]];
      start = -1;
      ms = 0;
      return;
    }
    if (start < 0) start = i;
    ms += (profile.timeDeltas[i + 1] ?? 0) / 1000;
  });
  if (start >= 0 && ms > bestMs) [bestMs, best] = [ms, [start, profile.samples.length]];
  const self = new Map<string, number>();
  for (let i = best[0]; i < best[1]; i += 1) {
    const f = byId.get(profile.samples[i])!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  const heaviest = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]) => `${t.toFixed(1)} ms ${name}`);
  return { ms: bestMs, heaviest };
}

/** A profiler of one page, or nothing when BENCH_RECORDS_PROFILE is not set. */
export async function pageProfiler(browser: Browser, context: BrowserContext, page: Page, label: string) {
  const dir = process.env.BENCH_RECORDS_PROFILE;
  if (!dir) return { step: async () => undefined, end: async () => undefined };
  mkdirSync(dir, { recursive: true });
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  let running = false;
  let marker = '';
  const start = async () => {
    await cdp.send('Profiler.start');
    await browser.startTracing(undefined, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel'],
    });
    marker = `records-step-${Date.now()}`;
    await page.evaluate((name) => performance.mark(name), marker);
    running = true;
  };
  await start();
  return {
    /** Ends the profile of `step` (written and summed up) and starts the next one's. */
    async step(step: string): Promise<void> {
      if (!running) return start();
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      const traced = await browser.stopTracing();
      const trace = JSON.parse(traced.toString()) as { traceEvents: TraceEvent[] };
      running = false;
      writeFileSync(join(dir, `${label}-${step}.cpuprofile`), JSON.stringify(profile));
      writeFileSync(join(dir, `${label}-${step}.trace.json`), traced);
      const tasks = longestTasks(trace.traceEvents, marker);
      const { ms, heaviest } = longestStretch(profile);
      console.log(
        `  [profile] ${label} ${step}: longest tasks ${tasks.join(', ')}; longest busy stretch ${ms.toFixed(0)} ms\n    ${heaviest.join('\n    ')}`,
      );
      await start();
    },
    async end(): Promise<void> {
      if (!running) return;
      running = false;
      await cdp.send('Profiler.stop');
      await browser.stopTracing();
    },
  };
}
