import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { z } from 'zod';
import { bridgeCalls, callChannels } from '@common/bridge';
import { createDispatcher, type Dispatch } from '../../../electron/services/host/dispatcher';
import { createDomains, type Domains } from '../../../electron/services/host/domains';
import { createMemoryHostBase, type EmittedEvent } from '../../../electron/services/host/memory-host';
import { makeImage } from '../../fixtures/composition/make-media';
import { seededRandom } from '../../seeded-random';

/**
 * Every bridge channel, with random and hostile arguments, through the same dispatcher the hosts use
 * (fixed seed, so a failure repeats). Arguments are drawn from each channel's own zod schema, so most
 * of them reach the handler, with strings taken from a hostile pool where paths or URLs would go.
 */
const SEED = 0x5eed16;
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 12);
const CANARY = 'CANARY-7f3a9c-secret-bytes';

const prng = seededRandom;

let dir: string;
let canaryPath: string;
let domains: Domains;
let dispatch: Dispatch;
let emitted: EmittedEvent[];

const hostileStrings = () => [
  canaryPath,
  `file://${canaryPath}`,
  join(dir, 'canary.txt'),
  `file://${join(dir, 'canary.txt')}`,
  'file:///etc/passwd',
  '/etc/shadow',
  '/proc/self/environ',
  '/root/.ssh/id_rsa',
  '../../../../etc/passwd',
  'C:\\Windows\\System32\\config\\SAM',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fe80::1]/x.png',
  'http://10.0.0.1/x.mp4',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://127.0.0.1:1/x.png',
  'ftp://example.com/a.mp4',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  '%',
  '',
  ' ',
  'a'.repeat(5000),
  '\u0000\u202e\ud800',
  '{"__proto__":{"x":1}}',
];

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** A value shaped like `schema` (often valid, sometimes not), strings from the hostile pool. */
function arbitrary(schema: unknown, rand: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  if (rand() < 0.04) return wild(rand, depth);
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      // The canary picture often, so a channel that reads ungranted files is caught within a few rounds.
      if (rand() < 0.3) return pick([canaryPath, `file://${canaryPath}`]);
      return rand() < 0.6 ? pick(hostileStrings()) : `s${Math.floor(rand() * 1e6)}`;
    case 'number':
      return pick([0, 1, -1, 0.5, 1e9, -1e9, 16, 640, Number.MAX_SAFE_INTEGER]);
    case 'int':
      return pick([0, 1, 16, 100, 4096]);
    case 'boolean':
      return rand() < 0.5;
    case 'null':
      return null;
    case 'undefined':
    case 'void':
      return undefined;
    case 'literal':
      return pick(def.values as unknown[]);
    case 'enum':
      return pick(Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return rand() < 0.3 ? undefined : arbitrary(def.innerType, rand, depth);
    case 'nullable':
      return rand() < 0.2 ? null : arbitrary(def.innerType, rand, depth);
    case 'default':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return arbitrary(def.innerType, rand, depth);
    case 'pipe':
      return arbitrary(def.in, rand, depth);
    case 'union':
      return arbitrary(pick(def.options as unknown[]), rand, depth);
    case 'intersection':
      return { ...(arbitrary(def.left, rand, depth) as object), ...(arbitrary(def.right, rand, depth) as object) };
    case 'tuple':
      return (def.items as unknown[]).map((item) => arbitrary(item, rand, depth + 1));
    case 'array': {
      if (depth > 4) return [];
      const length = pick([0, 1, 2, 3]);
      return Array.from({ length }, () => arbitrary(def.element, rand, depth + 1));
    }
    case 'record':
      return depth > 4
        ? {}
        : { [String(arbitrary(def.keyType, rand, depth + 1))]: arbitrary(def.valueType, rand, depth + 1) };
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        const v = depth > 5 ? undefined : arbitrary(value, rand, depth + 1);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'lazy':
      return depth > 4 ? null : arbitrary((def.getter as () => unknown)(), rand, depth + 1);
    default:
      return wild(rand, depth);
  }
}

/** Anything at all: the validator must refuse it cleanly. */
function wild(rand: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const kind = Math.floor(rand() * 7);
  if (kind === 0) return pick(hostileStrings());
  if (kind === 1) return pick([NaN, Infinity, -0, 2 ** 53, -1]);
  if (kind === 2) return pick([null, undefined, true, false]);
  if (kind === 3 && depth < 3) return [wild(rand, depth + 1), wild(rand, depth + 1)];
  if (kind === 4 && depth < 3)
    return { path: pick(hostileStrings()), url: pick(hostileStrings()), __proto__: { polluted: true } };
  if (kind === 5) return JSON.parse('{"constructor":{"prototype":{"polluted":true}}}');
  return pick(hostileStrings());
}

/** Calls that read the media they are given: none may succeed on the ungranted canary picture. */
const MEDIA_CALLS = new Set(['media.probe', 'media.frame', 'media.waveform', 'media.trimAudio', 'preview.poster']);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bridge-fuzz-'));
  // A real picture (so ffprobe would read it) beside a text canary (so its bytes would show).
  canaryPath = makeImage(join(dir, 'canary.png'), { colour: 'red', width: 16, height: 16 });
  writeFileSync(join(dir, 'canary.txt'), CANARY);
  const base = createMemoryHostBase({ dataDir: join(dir, 'data') });
  emitted = base.emitted;
  domains = createDomains(base);
  dispatch = createDispatcher({ handlers: domains.handlers, log: base.log, redact: (t) => t });
});

afterAll(async () => {
  await domains?.disposeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe(`bridge fuzz (seed ${SEED.toString(16)})`, () => {
  it(`answers every channel's random and hostile calls cleanly, reads no ungranted file, and pollutes nothing`, async () => {
    const rand = prng(SEED);
    let reachedHandler = 0;
    // A handler that never answers fails the test at its time-out; this names the call it was given.
    let inFlight = '';
    onTestFailed(() => console.error(`The call in flight when the test failed: ${inFlight}`));
    for (const channel of callChannels) {
      for (let round = 0; round < ROUNDS; round += 1) {
        const args = round === 0 ? wild(rand, 0) : arbitrary(bridgeCalls[channel].args as z.ZodType, rand);
        const shown = `${channel} ${JSON.stringify(args)?.slice(0, 300)}`;
        inFlight = shown;
        const outcome = await dispatch(channel, args);
        const answer = outcome as { ok: boolean; error?: { message: unknown; code?: unknown } };
        expect(typeof answer.ok, shown).toBe('boolean');
        if (!answer.ok) expect(typeof answer.error?.message, shown).toBe('string');
        if (answer.ok || answer.error?.code !== 'invalid-arguments') reachedHandler += 1;
        const text = JSON.stringify(outcome) ?? '';
        expect(text, shown).not.toContain(CANARY);
        expect(text, shown).not.toMatch(/root:x:0:0|PATH=\//);
        if (MEDIA_CALLS.has(channel) && answer.ok && JSON.stringify(args).includes(canaryPath))
          expect.fail(`${shown} read media it was not granted`);
      }
    }
    // Background work the calls started (renders and the like) may still report after its call
    // answered. A fixed wait for it was as long as this machine made it; instead the domains are shut
    // down (preview renders are awaited to their end, other work is stopped) and every event sent up
    // to then is checked too.
    await domains.disposeAll();
    expect(JSON.stringify(emitted)).not.toContain(CANARY);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(reachedHandler, 'too few calls passed validation to exercise the handlers').toBeGreaterThan(
      callChannels.length,
    );
  }, 120_000);
});
