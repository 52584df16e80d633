// A voiceover batch made on a queue: `tts-batch --queue` with one `studio worker` against the sandbox
// in its own process. Every row's file is saved by the studio that queued it, its jobs are in that
// studio's ledger (nothing left to download), and the sandbox made each line once.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/index';
import { stopSandbox } from '../../bench/campaign-sandbox';
import { queuePlace } from './queue-fixture';
import { readSandboxRecords } from '../../../electron/emulator/state/store';

const ROWS = 20;
const place = queuePlace('studio-batch-queue-');
const dir = place.dir;

describe('a voiceover batch made on a queue', () => {
  it("saves every row's file where it was queued, each line made once", async () => {
    const { redis, sandbox } = await place.start({}, { credits: 1_000_000, jobSeconds: 0.5 });
    await place.worker('w1', redis.url, sandbox);
    const lines = Array.from({ length: ROWS }, (_, i) => `Hello number ${i + 1},Ava`);
    writeFileSync(join(dir, 'lines.csv'), ['text,voice', ...lines].join('\n'));
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { STUDIO_API_KEY: sandbox.apiKey },
      cwd: dir,
    };
    const common = ['--base-url', sandbox.url, '--data-dir', join(dir, 'data'), '--json'];
    const code = await runCli(
      ['tts-batch', 'lines.csv', '--out-dir', 'voices', '--queue', redis.url, '--yes', ...common],
      io,
    );
    expect(code, err.join('\n')).toBe(EXIT.ok);
    expect(readdirSync(join(dir, 'voices')).filter((f) => f.endsWith('.mp3'))).toHaveLength(ROWS);

    const missing = await runCli(['download', '--missing', ...common], io);
    expect(missing, err.join('\n')).toBe(EXIT.ok);
    expect(JSON.parse(out[out.length - 1])).toEqual([]);

    await stopSandbox(sandbox);
    const state = readSandboxRecords(sandbox.dataDir).state as {
      jobs: Record<string, { kind: string; request: Record<string, unknown> }>;
    };
    const said = Object.values(state.jobs)
      .filter((j) => j.kind === 'tts')
      .map((j) => String(j.request.input_text));
    expect(said.sort()).toEqual(lines.map((l) => l.split(',')[0]).sort());
  }, 600_000);
});
