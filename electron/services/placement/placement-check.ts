import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostEstimate, JobView } from '../../common/bridge/jobs';
import type { PaidConfirmation, Price } from '../../common/jobs/cost-model';
import type { PlacementConvention } from '../../common/composition/placement';
import {
  PROBE_FRAME,
  PROBE_MARKER,
  PROBE_SPEECH_SECONDS,
  findMarker,
  judgeProbe,
  probeBody,
  type ProbeVerdict,
} from '../../common/composition/placement-probe';
import type { CatalogueService } from '../catalogue/catalogue-service';
import type { EngineConnections, JobEngine } from '../jobs/engine';

/**
 * "Check placement" on the connection new work goes to: sends the probe of placement-probe.ts as one
 * talking avatar (through the job engine, so it is in the Library like any paid job), downloads the
 * result, reads one frame with ffmpeg and stores the convention the marker proves. What it will send
 * and what it may cost are told first (`plan`); nothing is sent before `run`.
 */
export interface PlacementCheckDeps {
  connections: EngineConnections;
  engine: Pick<JobEngine, 'submit' | 'get' | 'price'>;
  catalogue: Pick<CatalogueService, 'avatars'>;
  /** Local files → links the service can fetch (the active storage). */
  upload(paths: string[], signal?: AbortSignal): Promise<string[]>;
  ffmpegPath(): Promise<string>;
  /** The active connection's balance, or null when the service does not answer it. */
  balance(): Promise<number | null>;
  /** Stores a proven convention on the connection. */
  record(connectionId: string, convention: PlacementConvention, at: number): Promise<void>;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  pollMs?: number;
  timeoutMs?: number;
}

export interface PlacementCheckPlan {
  connectionId: string;
  connectionName: string;
  /** What is sent, in words. */
  summary: string;
  estimate: CostEstimate | null;
  balance: number | null;
}

export type PlacementCheckResult = ProbeVerdict & {
  connectionId: string;
  connectionName: string;
  jobId: string | null;
};

export class PlacementChecker {
  constructor(private readonly deps: PlacementCheckDeps) {}

  async plan(): Promise<PlacementCheckPlan> {
    const connection = await this.deps.connections.active();
    const body = probeBody({ markerUrl: 'marker.png', audioUrl: 'tone.wav', avatarId: 'avatar' });
    return {
      connectionId: connection.id,
      connectionName: connection.name,
      summary: `One talking avatar, ${PROBE_FRAME.width}×${PROBE_FRAME.height}, about ${PROBE_SPEECH_SECONDS} s long: an official avatar, a ${PROBE_MARKER.width}×${PROBE_MARKER.height} marker picture and a tone, uploaded to your storage first.`,
      // The connection's own price (the sandbox publishes one): the user confirms the figure the engine holds it to.
      estimate: publishedEstimate(
        await this.deps.engine.price('talking-avatar', body as unknown as Record<string, unknown>, connection.id),
      ),
      balance: await this.deps.balance().catch(() => null),
    };
  }

  /** Sends the paid probe: `confirmation` is who agreed to pay for it (the engine refuses it without one). */
  async run(options: {
    confirmation: PaidConfirmation;
    signal?: AbortSignal;
    onStep?: (step: string) => void;
  }): Promise<PlacementCheckResult> {
    const step = options.onStep ?? (() => undefined);
    const connection = await this.deps.connections.active();
    const named = { connectionId: connection.id, connectionName: connection.name };
    const dir = await mkdtemp(join(tmpdir(), 'studio-placement-'));
    try {
      step('Making the marker and the tone');
      const ffmpeg = await this.deps.ffmpegPath();
      const marker = join(dir, 'placement-marker.png');
      const tone = join(dir, 'placement-tone.wav');
      await run(ffmpeg, [
        '-f',
        'lavfi',
        '-i',
        `color=c=${PROBE_MARKER.colour}:size=${PROBE_MARKER.width}x${PROBE_MARKER.height}`,
        '-frames:v',
        '1',
        marker,
      ]);
      await run(ffmpeg, [
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100',
        '-t',
        String(PROBE_SPEECH_SECONDS),
        tone,
      ]);

      const avatars = await this.deps.catalogue.avatars();
      const avatar = avatars.find((a) => a.avatar_id);
      if (!avatar?.avatar_id)
        throw new Error(`"${connection.name}" lists no official avatar, and the check needs one.`);

      step('Uploading the marker and the tone');
      const [markerUrl, audioUrl] = await this.deps.upload([marker, tone], options.signal);

      step('Sending one small talking avatar');
      const body = probeBody({ markerUrl, audioUrl, avatarId: avatar.avatar_id });
      const submitted = await this.deps.engine.submit(
        { kind: 'talking-avatar', body, confirmDuplicate: true, confirmation: options.confirmation },
        { signal: options.signal },
      );
      if (submitted.status !== 'submitted') throw new Error(submitted.message);
      const job = await this.waitFor(submitted.job.id, step, options.signal);
      if (job.phase !== 'completed' || !job.resultUrl) {
        return {
          proved: false,
          found: null,
          message: `The check's job did not finish (${job.phase.replace('-', ' ')}${job.error ? `: ${job.error.explanation}` : ''}), so the placement could not be told.`,
          ...named,
          jobId: job.id,
        };
      }

      step('Finding the marker in the result');
      const video = join(dir, 'result.mp4');
      const answer = await (this.deps.fetch ?? fetch)(job.resultUrl, { signal: options.signal });
      if (!answer.ok) throw new Error(`The result could not be downloaded (HTTP ${answer.status}).`);
      await writeFile(video, Buffer.from(await answer.arrayBuffer()));
      const frame = await run(ffmpeg, [
        '-ss',
        '0.5',
        '-i',
        video,
        '-frames:v',
        '1',
        '-vf',
        `scale=${PROBE_FRAME.width}:${PROBE_FRAME.height},format=rgb24`,
        '-f',
        'rawvideo',
        '-',
      ]);
      const verdict = judgeProbe(findMarker(frame, PROBE_FRAME.width, PROBE_FRAME.height));
      if (verdict.proved) await this.deps.record(connection.id, verdict.convention, (this.deps.now ?? Date.now)());
      return { ...verdict, ...named, jobId: job.id };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async waitFor(id: string, step: (s: string) => void, signal?: AbortSignal): Promise<JobView> {
    const deadline = (this.deps.now ?? Date.now)() + (this.deps.timeoutMs ?? 20 * 60_000);
    let last = '';
    for (;;) {
      const job = this.deps.engine.get(id);
      if (job.phase !== last) step(`The job is ${job.phase.replace('-', ' ')}`);
      last = job.phase;
      if (['completed', 'failed', 'outcome-unknown', 'stalled'].includes(job.phase)) return job;
      if ((this.deps.now ?? Date.now)() > deadline) return job;
      signal?.throwIfAborted();
      await new Promise((r) => setTimeout(r, this.deps.pollMs ?? 1000));
    }
  }
}

function run(binary: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(
      binary,
      ['-v', 'error', '-y', ...args],
      { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`ffmpeg failed: ${String(stderr).trim() || error.message}`)) : resolve(stdout),
    ),
  );
}

/** The active connection's balance through its own client; null when the service does not answer it. */
export async function balanceThrough(connections: EngineConnections): Promise<number | null> {
  const { id } = await connections.active();
  try {
    return (await (await connections.client(id)).call('quotaInfo', {})).credit;
  } catch {
    return null;
  }
}

/** A price the service publishes, as the plan shows it; null when it is not published. */
function publishedEstimate(price: Price): CostEstimate | null {
  return price.published ? { credits: price.credits, basis: price.basis } : null;
}
