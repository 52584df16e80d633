import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MediaTools } from '../../../electron/emulator/media/tools';
import { findSpeechEngine } from '../../../electron/services/media/speech-engine';
import { speak } from '../../../electron/emulator/media/speech';

const dir = mkdtempSync(join(tmpdir(), 'studio-speech-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Mean loudness in dB of an audio file (silence is -91). */
function meanVolume(path: string): number {
  const report = spawnSync('ffmpeg', [
    '-v',
    'info',
    '-i',
    path,
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]).stderr.toString();
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(report)?.[1] ?? NaN);
}

describe('the sandbox speaks without a system espeak-ng', () => {
  it('falls back to the npm WebAssembly build, run by Node as its own program', () => {
    const engine = findSpeechEngine({ searchSystem: false });
    expect(engine).toMatchObject({ bin: process.execPath, name: 'espeak-ng (WebAssembly build from npm)' });
    expect(findSpeechEngine({ espeakPath: '/nonexistent/espeak-ng' })).toBe('none');
  });

  it('runs the build with the baseline compiler only, which speaks the very same bytes', () => {
    const engine = findSpeechEngine({ searchSystem: false });
    if (engine === 'none') throw new Error('no npm espeak-ng');
    expect(engine.prefix).toEqual(['--liftoff-only', expect.stringMatching(/espeak-wasm\.mjs$/)]);
    const text = join(dir, 'same.txt');
    writeFileSync(text, 'The same sentence, spoken twice.');
    const spoken = (prefix: string[], wav: string) => {
      execFileSync(engine.bin, [...prefix, '-v', 'en-us', '-f', text, '-w', join(dir, wav)]);
      return readFileSync(join(dir, wav));
    };
    const fast = spoken(engine.prefix, 'liftoff.wav');
    expect(fast.length).toBeGreaterThan(10_000);
    expect(fast.equals(spoken(engine.prefix.slice(1), 'tiered.wav'))).toBe(true);
  });

  it('turns text into real speech of a plausible length', async () => {
    const tools = new MediaTools({ searchSystem: false });
    const out = join(dir, 'hello.mp3');
    await speak(
      tools,
      'Hello from the sandbox. This sentence is spoken by the WebAssembly build of espeak.',
      { espeak: 'en-gb+m3', pitch: 45 },
      0.5,
      out,
      dir,
    );
    const seconds = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out]).toString(),
    );
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(12);
    expect(meanVolume(out)).toBeGreaterThan(-40);
    await tools.stop();
  });
});
