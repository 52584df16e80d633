import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { makeTone, probe } from '../../fixtures/composition/make-media';
import { openLedger } from '../../../electron/services/records/open-ledger';

let emulator: RunningEmulator;
let dataDir: string;
let out: string;

function io() {
  const lines = { out: [] as string[], err: [] as string[] };
  const value: CliIo = {
    out: (t) => lines.out.push(t),
    err: (t) => lines.err.push(t),
    env: { STUDIO_API_KEY: emulator.apiKey },
    cwd: process.cwd(),
  };
  return { io: value, ...lines };
}
const cli = (args: string[], session = io()) =>
  runCli([...args, '--base-url', emulator.url, '--data-dir', dataDir], session.io).then((code) => ({
    code,
    ...session,
  }));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobSeconds: 0.3 });
  dataDir = mkdtempSync(join(tmpdir(), 'studio-speech-cli-'));
  out = mkdtempSync(join(tmpdir(), 'studio-speech-out-'));
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe('studio tts and clone', () => {
  it('speaks a script file, waits, saves the MP3 and prints its link; the same request again asks for --again', async () => {
    const script = join(out, 'script.txt');
    writeFileSync(script, 'A voiceover made from the command line.');
    const saved = join(out, 'voiceover.mp3');
    const first = await cli([
      'tts',
      '--yes',
      '--voice',
      'sandbox_ava',
      '--text-file',
      script,
      '--rate',
      '60',
      '--out',
      saved,
    ]);
    expect(first.code, first.err.join('\n')).toBe(0);
    expect(first.out.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/\w+\.mp3$/);
    expect((await probe(saved)).hasAudio).toBe(true);
    expect(readdirSync(out).filter((n) => n.endsWith('.part'))).toEqual([]);

    const again = await cli([
      'tts',
      '--yes',
      '--voice',
      'sandbox_ava',
      '--text-file',
      script,
      '--rate',
      '60%',
      '--json',
    ]);
    expect(again.code).toBe(3);
    expect(again.err.join('\n')).toMatch(/Add --again to send it anyway/);
    const forced = await cli([
      'tts',
      '--yes',
      '--voice',
      'sandbox_ava',
      '--text-file',
      script,
      '--rate',
      '60%',
      '--json',
      '--again',
    ]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.out.join('\n'))).toMatchObject({
      kind: 'tts',
      phase: 'completed',
      request: { rate: '60%' },
      savedTo: null,
    });
  }, 120_000);

  it('says the price (unpublished, with the last charge as a guide) and sends nothing without --yes or a "y"', async () => {
    const jobs = () => openLedger(dataDir).loadAll().length;
    const before = jobs();
    const quiet = await cli(['tts', '--voice', 'sandbox_ava', '--text', 'Not paid for.']);
    expect(quiet.code).toBe(EXIT.refused);
    expect(quiet.err.join('\n')).toMatch(
      /Speech on .*: The service charges for this; its price is not published\. On this connection the last \d+ cost 1 credit/,
    );
    expect(quiet.err.join('\n')).toMatch(/Nothing was sent: speech is paid\. Answer y on a terminal, or pass --yes/);
    const no = io();
    no.io.stdin = async () => 'n\n';
    expect((await cli(['tts', '--voice', 'sandbox_ava', '--text', 'Not paid for.'], no)).code).toBe(EXIT.refused);
    expect(jobs()).toBe(before);
    const yes = io();
    yes.io.stdin = async () => 'y\n';
    expect((await cli(['tts', '--voice', 'sandbox_ava', '--text', 'Paid for after a yes.'], yes)).code).toBe(0);
    expect(jobs()).toBe(before + 1);
  }, 120_000);

  it('refuses what the interface does not allow before sending, naming it', async () => {
    const cases: [string[], RegExp][] = [
      [['tts', '--text', 'No voice'], /required option '--voice <ID>' not specified/],
      [['tts', '--yes', '--voice', 'sandbox_ava'], /--text TEXT or --text-file FILE/],
      [['tts', '--yes', '--voice', 'sandbox_ava', '--text', '   '], /script is empty/],
      [
        ['tts', '--yes', '--voice', 'no_such_voice', '--text', 'hi'],
        /voice "no_such_voice" is not one of this connection's voices/,
      ],
      [['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'x', '--rate', '150%'], /--rate must be 0% to 100%/],
      [['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'word '.repeat(5001)], /input_text exceeds 5000 words/],
      [['clone', '--yes', '--sample', 'ftp://example.com/a.mp3', '--text', 'hi'], /voice_url must be an http\(s\) URL/],
    ];
    const jobs = () => openLedger(dataDir).loadAll().length;
    const before = jobs();
    for (const [args, reason] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err.join('\n')).toMatch(reason);
    }
    // Nothing reached the service: no job was written.
    expect(jobs()).toBe(before);
  }, 120_000);

  it('clones the voice of a sample link and saves the speech', async () => {
    const sample = `${emulator.url}/sandbox/voice-sandbox_ava.mp3`;
    const saved = join(out, 'clone.mp3');
    const result = await cli([
      'clone',
      '--yes',
      '--sample',
      sample,
      '--text',
      'Spoken in a cloned voice.',
      '--out',
      saved,
    ]);
    expect(result.code, result.err.join('\n')).toBe(0);
    expect((await probe(saved)).hasAudio).toBe(true);
  }, 120_000);

  it('clones the voice of a local recording, uploaded to the storage first', async () => {
    makeTone(join(out, 'my voice.wav'), { seconds: 3 });
    const session = io();
    const result = await runCli(
      [
        'clone',
        '--yes',
        '--sample',
        'my voice.wav',
        '--text',
        'Spoken in my own voice.',
        '--json',
        '--base-url',
        emulator.url,
        '--data-dir',
        dataDir,
      ],
      { ...session.io, cwd: out },
    );
    expect(result, session.err.join('\n')).toBe(0);
    expect(JSON.parse(session.out.join('\n'))).toMatchObject({
      kind: 'voice-clone',
      phase: 'completed',
      request: { voice_url: expect.stringMatching(/^https?:\/\//) },
    });
  }, 120_000);
});
