import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaProber } from '../../../electron/services/media/probe';
import { ProcessRunner } from '../../../electron/services/media/process';
import { ProxyMaker } from '../../../electron/services/media/proxies';
import { FFMPEG, FFPROBE, makeVideo } from '../../fixtures/composition/make-media';
import { until, MEDIA_TEST_GUARD_MS } from '../../wait';

describe('ProxyMaker with real ffmpeg', () => {
  let dir: string;
  const runner = new ProcessRunner();
  const prober = new MediaProber(async () => FFPROBE, runner);
  let proxies: ProxyMaker;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'proxies-'));
    proxies = new ProxyMaker({ dir: join(dir, 'proxies'), runner, ffmpeg: async () => FFMPEG });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sizes proxies to how large the media is drawn, at most 25 fps, silent, made once', async () => {
    const source = makeVideo(join(dir, 'src.mp4'), {
      colour: 'testsrc2',
      width: 1280,
      height: 720,
      seconds: 1,
      fps: 50,
      withAudio: true,
    });
    const info = await prober.probe(source);
    const small = await proxies.proxyFor(source, info, { drawnLongSide: 200 });
    const large = await proxies.proxyFor(source, info, { drawnLongSide: 600 });
    expect(await prober.probe(small)).toMatchObject({ width: 320, height: 180, fps: 25, hasAudio: false });
    expect(await prober.probe(large)).toMatchObject({ width: 640, height: 360 });
    expect(await proxies.proxyFor(source, info, { drawnLongSide: 5000 })).toBe(large);
    expect(await proxies.proxyFor(source, info, { drawnLongSide: 200 })).toBe(small);
  });

  it('leaves small media and stills alone', async () => {
    const source = makeVideo(join(dir, 'small.mp4'), { colour: 'red', width: 400, height: 300, seconds: 0.2 });
    const info = await prober.probe(source);
    expect(await proxies.proxyFor(source, info, { drawnLongSide: 200 })).toBe(source);
    expect(proxies.needsProxy({ ...info, kind: 'image', width: 4000, height: 3000 })).toBe(false);
    expect(proxies.tierFor(321)).toBe(640);
  });

  // Fails when one caller's cancel kills a proxy another caller still waits for (mutation: abort the
  // shared controller on any caller's signal), or when nobody waiting leaves ffmpeg running.
  it(
    'shares one ffmpeg between callers and stops it only when every caller has given up',
    async () => {
      // Its ffmpeg stands stopped until released or killed, so it is still under way when callers give
      // up, however quick or slow this machine is.
      const { runner, release } = heldRunner();
      const proxies = new ProxyMaker({ dir: join(dir, 'held-proxies'), runner, ffmpeg: async () => FFMPEG });
      const source = makeVideo(join(dir, 'shared.mp4'), { colour: 'testsrc2', width: 1920, height: 1080, seconds: 2 });
      const info = await prober.probe(source);
      const background = new AbortController();
      const early = proxies.proxyFor(source, info, {
        drawnLongSide: 640,
        signal: background.signal,
        lowPriority: true,
      });
      const needed = proxies.proxyFor(source, info, { drawnLongSide: 640 });
      await until('one proxy render to run', () => runner.running === 1);
      background.abort();
      await expect(early).rejects.toThrow(/cancelled/);
      release();
      expect(await prober.probe(await needed)).toMatchObject({ width: 640, height: 360 });

      const other = makeVideo(join(dir, 'abandoned.mp4'), {
        colour: 'testsrc2',
        width: 1920,
        height: 1080,
        seconds: 2,
      });
      const otherInfo = await prober.probe(other);
      const a = new AbortController();
      const b = new AbortController();
      const first = proxies.proxyFor(other, otherInfo, { drawnLongSide: 640, signal: a.signal });
      const second = proxies.proxyFor(other, otherInfo, { drawnLongSide: 640, signal: b.signal });
      await until('the shared proxy render to run', () => runner.running === 1);
      a.abort();
      expect(runner.running).toBe(1);
      b.abort();
      await Promise.allSettled([first, second]);
      await until('the abandoned proxy render to stop', () => runner.running === 0);
    },
    MEDIA_TEST_GUARD_MS,
  );
});

/**
 * A runner whose processes stand stopped (SIGSTOP) from their start until `release()` or until they
 * are killed (a kill also continues them, so that they can take the signal and exit).
 */
function heldRunner(): { runner: ProcessRunner; release(): void } {
  const stopped = new Set<number>();
  const resume = (pid: number): void => {
    if (stopped.delete(pid)) process.kill(pid, 'SIGCONT');
  };
  const runner = new ProcessRunner((file, args, options) => {
    const child = spawn(file, args, options);
    const pid = child.pid;
    if (pid === undefined) return child;
    process.kill(pid, 'SIGSTOP');
    stopped.add(pid);
    child.once('exit', () => stopped.delete(pid));
    const kill = child.kill.bind(child);
    child.kill = (signal?: NodeJS.Signals | number) => {
      const sent = kill(signal);
      resume(pid);
      return sent;
    };
    return child;
  });
  return { runner, release: () => [...stopped].forEach(resume) };
}
