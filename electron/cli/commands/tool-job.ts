import { resolve } from 'node:path';
import { JOB_PHASE_LABELS, type JobView, type SubmitResult } from '../../common/bridge/jobs';
import type { MediaCheck } from '../../common/composition/media-checks';
import type { MediaInfo } from '../../common/composition/media-info';
import { mediaFacts } from '../../common/tools/media-facts';
import { explainToolFailure, type ToolKind } from '../../common/tools/tool-failures';
import { createMediaToolkit, type MediaToolkit } from '../../services/media/toolkit';
import type { ToolDeps } from '../../services/tools/tool-deps';
import { StudioError } from '../../services/host/errors';
import { NOT_GRANTED, type LocalGrants } from '../../services/media/local-grants';
import type { LocalMediaLinker } from '../../services/storage/local-media-linker';
import type { CliHost } from '../cli-host-types';
import { EXIT, type CliIo } from '../command';
import type { CommandEngine } from '../owner-host';
import { saveResult } from './save-result';

const isLink = (value: string): boolean => /^https?:\/\//i.test(value);

/**
 * Where a served run's tools find local files: only those its clients named (granted when named, see
 * owner-files.ts), uploaded by the linker that refuses every other reference.
 */
export interface GrantedFiles {
  grants: LocalGrants;
  linker: LocalMediaLinker;
}

/**
 * The tools' host side on the command line: ffprobe of links (downloaded to the media cache) and of
 * local files, local files uploaded to the active storage, the CLI's job engine and model list. For
 * this run's own command a local file is a path its user gave; for the commands of other `studio`
 * processes it serves (`granted`), only a file one of them named.
 */
export function cliToolDeps(
  host: CliHost,
  io: CliIo,
  granted?: GrantedFiles,
): { deps: ToolDeps; toolkit: MediaToolkit } {
  const toolkit = createMediaToolkit({ dataDir: host.dataDir, settings: () => host.settings.get() });
  const local = (value: string) => {
    if (!granted) return resolve(io.cwd, value);
    const path = granted.grants.pathOf(value);
    if (!path) throw new StudioError(NOT_GRANTED, 'not-allowed');
    return path;
  };
  const upload = async (paths: string[]) =>
    (await host.storage.uploader.uploadAll(paths, host.storage.storages.activeId())).map((u) => u.url);
  const deps: ToolDeps = {
    probe: async (reference) =>
      toolkit.prober.probe(isLink(reference) ? await toolkit.cache.localPath(reference) : local(reference)),
    link: async (value) => {
      if (granted) return (await granted.linker.linkFor('tools')(value)).value as typeof value;
      const entries = Object.entries(value);
      const files = entries.filter(([, v]) => !isLink(v));
      if (files.length === 0) return value;
      const uploaded = await upload(files.map(([, v]) => local(v)));
      const links = new Map(files.map(([k], i) => [k, uploaded[i]]));
      return Object.fromEntries(entries.map(([k, v]) => [k, links.get(k) ?? v])) as typeof value;
    },
    submit: (submission) => host.engine.submit(submission),
    swapModels: () => host.catalogue.models([2101]),
  };
  return { deps, toolkit };
}

/** "3.0 s · 640×360 · 25 fps · 2.1 MB · with sound". */
export function describeMedia(info: MediaInfo): string {
  return mediaFacts(info).join(' · ');
}

/** Warnings and refusals, one per line; true when something refuses the send. */
export function reportChecks(checks: readonly MediaCheck[], io: CliIo): boolean {
  for (const check of checks) io.err(`${check.level === 'error' ? 'Refused' : 'Warning'}: ${check.message}`);
  return checks.some((c) => c.level === 'error');
}

const BAR_WIDTH = 24;

export function jobBar(job: Pick<JobView, 'progress' | 'phase'>): string {
  const fraction = Math.max(0, Math.min(1, job.progress));
  const filled = Math.round(fraction * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${JOB_PHASE_LABELS[job.phase]}`;
}

/**
 * Follows a sent tool job to its end (a bar redrawn in place on a terminal, phase lines otherwise),
 * explains a refusal in the tool's words (a kind without its own words: the general ones), and with
 * `out` saves the result. Returns the exit code.
 */
export async function followToolJob(
  host: { engine: Pick<CommandEngine, 'subscribe' | 'get' | 'waitFor'> },
  kind: ToolKind | null,
  result: SubmitResult,
  io: CliIo,
  options: { json: boolean; out?: string; tty: boolean },
): Promise<number> {
  if (result.status === 'duplicate') {
    io.err(`${result.message.replace(/ Send it anyway\?$/, '')} Add --again to send it anyway.`);
    return EXIT.failed;
  }
  const id = result.job.id;
  const { json, tty } = options;
  if (!json) io.err(`Sent as job ${id.slice(0, 8)} to ${result.job.connectionName}.`);
  let shown = '';
  const draw = (job: JobView) => {
    if (json) return;
    const line = jobBar(job);
    if (tty) process.stderr.write(`\r\x1b[2K${line}`);
    else if (job.phase !== shown) io.err(`  ${JOB_PHASE_LABELS[job.phase]}`);
    shown = job.phase;
  };
  draw(result.job);
  const stop = host.engine.subscribe((job) => job.id === id && draw(job));
  // The progress is an estimate that grows with time, so the bar is redrawn between the engine's answers.
  const ticker = tty && !json ? setInterval(() => draw(host.engine.get(id)), 1000) : null;
  const job = await host.engine.waitFor(id).finally(() => {
    stop();
    if (ticker) clearInterval(ticker);
    if (tty && !json) process.stderr.write('\n');
  });
  if (job.phase !== 'completed') {
    io.err(
      `The job did not complete: ${(kind && explainToolFailure(kind, job.error?.code)) ?? job.error?.explanation ?? JOB_PHASE_LABELS[job.phase]}`,
    );
    if (json) io.out(JSON.stringify(job, null, 2));
    return EXIT.failed;
  }
  if (options.out) {
    await saveResult(job, options.out, io);
    if (!json) io.err(`Saved ${options.out}`);
  }
  io.out(json ? JSON.stringify({ ...job, savedTo: options.out ?? null }, null, 2) : (job.resultUrl ?? ''));
  return EXIT.ok;
}
