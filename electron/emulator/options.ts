import { existsSync, statSync } from 'node:fs';
import type { BodyDeadlineOptions } from '../services/host/body-deadline';
import { sealWebhook } from '../services/webhooks/webhook-crypto';
import { DEFAULT_PLACEMENT, PlacementAnchor, PlacementScale } from '../common/composition/placement';

/** Everything `startEmulator` and `npm run emulator` accept. Every field has a default. */
export interface EmulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  /** When `port` is taken, listen on a free one instead of failing (the built-in sandbox). */
  portFallback?: boolean;
  /**
   * Ports this data folder's sandbox listened on before: links to its own files at those ports are
   * still its own (read from disk when a job uses them) and, where a port is free, served there too.
   */
  earlierPorts?: number[];
  host?: string;
  apiKey?: string;
  clientId?: string;
  clientSecret?: string;
  /** Minimum seconds from create to a final status (a quarter of it queueing, the rest processing). */
  jobSeconds?: number;
  /** Starting credit balance of the sandbox account. */
  credits?: number;
  /** Requests per second per credential before code 1005; 0 = no limit. */
  rateLimit?: number;
  /** Records and result files persist here across restarts; default: a fresh temporary folder. */
  dataDir?: string;
  /** Where generated sample media is cached; default: one cache per user (sharedCacheDir). */
  catalogueDir?: string;
  /**
   * Fraction (0..1) of jobs that fail while processing (status 4, reason names the injected fault).
   * This and the other fault rates are counted, not drawn (faults.ts): 0.25 fails every 4th.
   */
  failRate?: number;
  /** Delay added before every response. */
  latencyMs?: number;
  /** Fraction (0..1) of API requests answered with HTTP 503 and a non-envelope body. */
  http5xxRate?: number;
  /** Fraction (0..1) of API requests whose connection is dropped without an answer. */
  dropRate?: number;
  /**
   * Fraction (0..1) of API requests answered code 1005 (too frequent) whatever their pace: a counted
   * burst that a test meets however fast or slow the machine sends, where `rateLimit` depends on it.
   */
  tooFrequentRate?: number;
  /** Fraction of creates whose connection is dropped after the job was made (the ambiguous case). */
  dropAfterCreateRate?: number;
  /**
   * How the sandbox reads offset_x/offset_y (the box's centre, or its top-left corner) and scale_x/scale_y
   * (of the frame, or of the media's own size): the real service's reading is measured, not known, so
   * the sandbox can imitate either. Default: centre and frame, as in the service's own examples.
   */
  placement?: PlacementAnchor;
  scale?: PlacementScale;
  /** Lifetime of access tokens from getToken. */
  tokenTtlSeconds?: number;
  /** Lifetime of generated result files (7 days in the interface). */
  resultTtlSeconds?: number;
  /** Webhook delivery attempts and the first retry delay (doubled after each failure). */
  webhookAttempts?: number;
  webhookBackoffMs?: number;
  /** Paths of external tools; default: resolved like the app does (settings, env, PATH). */
  ffmpegPath?: string;
  ffprobePath?: string;
  espeakPath?: string;
  /** Limits per job: processing time (default 600 s) and result size (default 512 MB). */
  jobTimeoutSeconds?: number;
  maxResultMb?: number;
  /**
   * A sound file every TTS job returns instead of speaking its text (benchmarks of how jobs are sent
   * and followed, where speaking a thousand scripts would only measure espeak-ng).
   */
  speechFixture?: string;
  /**
   * A video file every avatar video and talking avatar job returns instead of rendering its body (its
   * inputs are still fetched and checked): benchmarks of how rows are sent and followed, where a thousand
   * renders would only measure ffmpeg on the machine.
   */
  videoFixture?: string;
  /** How long a request may take to arrive (defaults in services/host/body-deadline.ts); tests shorten it. */
  bodyTime?: BodyDeadlineOptions;
  /** Receives one line per notable event (never a secret). */
  log?: (line: string) => void;
  /** Injected for deterministic tests. */
  now?: () => number;
}

export type ResolvedOptions = Required<
  Omit<
    EmulatorOptions,
    | 'ffmpegPath'
    | 'ffprobePath'
    | 'espeakPath'
    | 'dataDir'
    | 'catalogueDir'
    | 'portFallback'
    | 'earlierPorts'
    | 'jobTimeoutSeconds'
    | 'maxResultMb'
    | 'bodyTime'
    | 'speechFixture'
    | 'videoFixture'
  >
> & {
  bodyTime?: BodyDeadlineOptions;
  speechFixture?: string;
  videoFixture?: string;
  portFallback?: boolean;
  earlierPorts?: number[];
  jobTimeoutSeconds?: number;
  maxResultMb?: number;
  catalogueDir?: string;
  ffmpegPath?: string;
  ffprobePath?: string;
  espeakPath?: string;
  dataDir?: string;
};

export const DEFAULTS = {
  port: 4780,
  host: '127.0.0.1',
  // 16+ bytes: the first 16 are the webhook IV (the generated client secret, 32 bytes, is the AES-256 key).
  clientId: 'sandbox-client-id',
  jobSeconds: 4,
  credits: 1000,
  rateLimit: 0,
  failRate: 0,
  latencyMs: 0,
  http5xxRate: 0,
  dropRate: 0,
  tooFrequentRate: 0,
  dropAfterCreateRate: 0,
  // Tokens of the real service live more than a year (observed; the exact lifetime is not published).
  tokenTtlSeconds: 400 * 24 * 3600,
  resultTtlSeconds: 7 * 24 * 3600,
  webhookAttempts: 4,
  webhookBackoffMs: 500,
} as const;

export function resolveOptions(o: EmulatorOptions): ResolvedOptions {
  const fraction = (name: string, v: number | undefined, d: number) => {
    const value = v ?? d;
    if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1 (got ${value})`);
    return value;
  };
  const nonNegative = (name: string, v: number | undefined, d: number) => {
    const value = v ?? d;
    if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a number >= 0 (got ${value})`);
    return value;
  };
  const clientId = o.clientId ?? DEFAULTS.clientId;
  const clientSecret = o.clientSecret ?? '';
  // startEmulator always names a secret; an empty one here is resolveOptions called on its own.
  if (clientSecret !== '') {
    const problem = webhookCredentialsProblem(clientId, clientSecret);
    if (problem) throw new RangeError(problem);
  }
  return {
    port: nonNegative('port', o.port, DEFAULTS.port),
    portFallback: o.portFallback,
    earlierPorts: o.earlierPorts,
    host: o.host ?? DEFAULTS.host,
    // startEmulator fills these from the data folder's generated key when the caller names none.
    apiKey: o.apiKey ?? '',
    clientId,
    clientSecret,
    jobSeconds: nonNegative('jobSeconds', o.jobSeconds, DEFAULTS.jobSeconds),
    credits: nonNegative('credits', o.credits, DEFAULTS.credits),
    rateLimit: nonNegative('rateLimit', o.rateLimit, DEFAULTS.rateLimit),
    dataDir: o.dataDir,
    catalogueDir: o.catalogueDir,
    failRate: fraction('failRate', o.failRate, DEFAULTS.failRate),
    latencyMs: nonNegative('latencyMs', o.latencyMs, DEFAULTS.latencyMs),
    http5xxRate: fraction('http5xxRate', o.http5xxRate, DEFAULTS.http5xxRate),
    dropRate: fraction('dropRate', o.dropRate, DEFAULTS.dropRate),
    tooFrequentRate: fraction('tooFrequentRate', o.tooFrequentRate, DEFAULTS.tooFrequentRate),
    dropAfterCreateRate: fraction('dropAfterCreateRate', o.dropAfterCreateRate, DEFAULTS.dropAfterCreateRate),
    placement: oneOf('placement', PlacementAnchor.options, o.placement, DEFAULT_PLACEMENT.anchor),
    scale: oneOf('scale', PlacementScale.options, o.scale, DEFAULT_PLACEMENT.scale),
    tokenTtlSeconds: nonNegative('tokenTtlSeconds', o.tokenTtlSeconds, DEFAULTS.tokenTtlSeconds),
    resultTtlSeconds: nonNegative('resultTtlSeconds', o.resultTtlSeconds, DEFAULTS.resultTtlSeconds),
    webhookAttempts: Math.max(
      1,
      Math.floor(nonNegative('webhookAttempts', o.webhookAttempts, DEFAULTS.webhookAttempts)),
    ),
    webhookBackoffMs: nonNegative('webhookBackoffMs', o.webhookBackoffMs, DEFAULTS.webhookBackoffMs),
    ffmpegPath: o.ffmpegPath,
    ffprobePath: o.ffprobePath,
    espeakPath: o.espeakPath,
    jobTimeoutSeconds: o.jobTimeoutSeconds,
    maxResultMb: o.maxResultMb,
    bodyTime: o.bodyTime,
    speechFixture: readyMade('speechFixture', o.speechFixture),
    videoFixture: readyMade('videoFixture', o.videoFixture),
    log: o.log ?? (() => undefined),
    now: o.now ?? Date.now,
  };
}

/**
 * Why these credentials cannot seal a webhook, or null. The sandbox seals every callback with them, so
 * credentials that cannot would only fail later inside a running job; sealing a sample event applies
 * exactly the rule the callbacks use (secret of 16, 24 or 32 bytes, client id of at least 16).
 */
export function webhookCredentialsProblem(clientId: string, clientSecret: string): string | null {
  try {
    sealWebhook({ _id: 'check', status: 3, type: 'audio', url: '' }, { clientId, clientSecret }, 0, '1000');
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `--client-id/--client-secret cannot sign webhooks: ${reason}. The sandbox encrypts every callback with them (AES-CBC: the secret is the key, the client id's first 16 bytes the IV).`;
  }
}

/** A ready-made result file, checked at start: a missing one would only fail every job later. */
function readyMade(name: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  if (!existsSync(path) || !statSync(path).isFile()) throw new RangeError(`${name} is not a file: ${path}`);
  return path;
}

function oneOf<T extends string>(name: string, allowed: readonly T[], value: string | undefined, fallback: T): T {
  const v = value ?? fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new RangeError(`${name} must be ${allowed.join(' or ')} (got "${v}")`);
  return v as T;
}

/** Flags of `npm run emulator`, mapped to options. */
const FLAGS: Record<string, { key: keyof EmulatorOptions; kind: 'number' | 'string'; help: string }> = {
  '--port': { key: 'port', kind: 'number', help: 'TCP port (0 = any free port); default 4780' },
  '--host': { key: 'host', kind: 'string', help: 'interface to listen on; default 127.0.0.1' },
  '--api-key': {
    key: 'apiKey',
    kind: 'string',
    help: 'x-api-key accepted; default: generated per data folder (<data dir>/access-key.json)',
  },
  '--client-id': { key: 'clientId', kind: 'string', help: `clientId for getToken; default ${DEFAULTS.clientId}` },
  '--client-secret': {
    key: 'clientSecret',
    kind: 'string',
    help: 'clientSecret for getToken; default: generated with the key',
  },
  '--job-seconds': {
    key: 'jobSeconds',
    kind: 'number',
    help: `minimum seconds per job; default ${DEFAULTS.jobSeconds}`,
  },
  '--credits': { key: 'credits', kind: 'number', help: `starting balance; default ${DEFAULTS.credits}` },
  '--rate-limit': {
    key: 'rateLimit',
    kind: 'number',
    help: 'requests/second per credential before code 1005; default off',
  },
  '--data-dir': { key: 'dataDir', kind: 'string', help: 'folder for records and result files; default a temp folder' },
  '--cache-dir': {
    key: 'catalogueDir',
    kind: 'string',
    help: 'cache of generated sample media, shared by every data folder; default: the platform cache folder',
  },
  '--fail-rate': {
    key: 'failRate',
    kind: 'number',
    help: 'fraction 0..1 of jobs that fail (status 4), counted: 0.25 fails every 4th',
  },
  '--latency-ms': { key: 'latencyMs', kind: 'number', help: 'delay before every response' },
  '--http-5xx-rate': {
    key: 'http5xxRate',
    kind: 'number',
    help: 'fraction 0..1 of requests answered HTTP 503, counted like --fail-rate',
  },
  '--drop-rate': {
    key: 'dropRate',
    kind: 'number',
    help: 'fraction 0..1 of requests whose connection is dropped, counted like --fail-rate',
  },
  '--too-frequent-rate': {
    key: 'tooFrequentRate',
    kind: 'number',
    help: 'fraction 0..1 of requests answered code 1005 (too frequent), counted like --fail-rate',
  },
  '--drop-after-create-rate': {
    key: 'dropAfterCreateRate',
    kind: 'number',
    help: 'fraction 0..1 of creates dropped after the job was made, counted like --fail-rate',
  },
  '--placement': {
    key: 'placement',
    kind: 'string',
    help: 'offset_x/offset_y place the element by its centre or top-left; default centre',
  },
  '--scale': {
    key: 'scale',
    kind: 'string',
    help: "scale_x/scale_y are of the frame or of the element's own size; default frame",
  },
  '--token-ttl': {
    key: 'tokenTtlSeconds',
    kind: 'number',
    help: 'access token lifetime in seconds; default 34560000 (400 days)',
  },
  '--result-ttl': {
    key: 'resultTtlSeconds',
    kind: 'number',
    help: 'result file lifetime in seconds; default 604800 (7 days)',
  },
  // Ready-made results, as the benches use them: a load test of sending and following jobs, not of
  // espeak-ng or ffmpeg on the machine.
  '--speech-fixture': {
    key: 'speechFixture',
    kind: 'string',
    help: 'a sound file every TTS job returns instead of speaking its text (load tests); default off',
  },
  '--video-fixture': {
    key: 'videoFixture',
    kind: 'string',
    help: 'a video file every avatar video and talking avatar job returns instead of rendering it (inputs still fetched and checked; load tests); default off',
  },
};

export function usage(): string {
  const lines = Object.entries(FLAGS).map(([flag, f]) => `  ${flag.padEnd(18)} ${f.help}`);
  return ['Usage: npm run emulator -- [flags]', ...lines, '  --help             this text'].join('\n');
}

/** Parses `--flag value` and `--flag=value`; throws a RangeError naming the bad flag. */
export function parseArgs(argv: readonly string[]): EmulatorOptions & { help?: boolean } {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { help: true };
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const spec = FLAGS[flag];
    if (!spec) throw new RangeError(`Unknown flag ${flag}\n${usage()}`);
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new RangeError(`${flag} needs a value`);
    if (spec.kind === 'number') {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new RangeError(`${flag} must be a number (got "${raw}")`);
      out[spec.key] = n;
    } else out[spec.key] = raw;
  }
  return out as EmulatorOptions;
}
