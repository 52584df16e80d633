import { mkdtempSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessRunner } from '../../../electron/services/media/process';
import { MediaProber } from '../../../electron/services/media/probe';
import { FFMPEG, FFPROBE } from '../../fixtures/composition/make-media';

const endless = ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'];

describe('ProcessRunner (real processes)', () => {
  // Fails when lowPriority is ignored (mutation: drop the setPriority call).
  it('runs background work at a low priority and the rest at the normal one', async () => {
    const pids: number[] = [];
    const runner = new ProcessRunner((file, args, options) => {
      const child = spawn(file, args, options);
      pids.push(child.pid as number);
      return child;
    });
    // Read once the process reports progress from its loop (so it is running, and alive until it is
    // stopped just after), not by sampling on a timer through a run of a set length.
    const priorityOf = async (lowPriority: boolean): Promise<number> => {
      const controller = new AbortController();
      let seen: number | null = null;
      const onStdoutLine = () => {
        if (seen !== null) return;
        seen = getPriority(pids.at(-1));
        controller.abort();
      };
      await runner.run(FFMPEG, ['-progress', 'pipe:1', ...endless], {
        lowPriority,
        signal: controller.signal,
        onStdoutLine,
      });
      if (seen === null) throw new Error('ffmpeg ended without reporting progress');
      return seen;
    };
    expect(await priorityOf(true)).toBe(15);
    expect(await priorityOf(false)).toBe(getPriority());
  });

  it('collects stdout lines and the exit code', async () => {
    const runner = new ProcessRunner();
    const lines: string[] = [];
    const result = await runner.run(
      FFMPEG,
      ['-hide_banner', '-f', 'lavfi', '-i', 'sine=d=0.2', '-f', 'null', '-', '-progress', 'pipe:1', '-nostats'],
      {
        onStdoutLine: (line) => lines.push(line),
      },
    );
    expect(result.code).toBe(0);
    expect(lines.at(-1)).toBe('progress=end');
    expect(runner.running).toBe(0);
  });

  it('kills a process on abort and every process on killAll', async () => {
    const runner = new ProcessRunner();
    const controller = new AbortController();
    // Each ffmpeg reports progress once it is running its loop (its signal handlers in place).
    const reporting = ['-progress', 'pipe:1', ...endless];
    const running: Promise<void>[] = [];
    const started = () => {
      let report = () => undefined as void;
      running.push(new Promise<void>((resolve) => (report = resolve)));
      return { onStdoutLine: () => report() };
    };
    const one = runner.run(FFMPEG, reporting, { signal: controller.signal, ...started() });
    const two = runner.run(FFMPEG, reporting, started());
    await Promise.all(running);
    expect(runner.running).toBe(2);
    controller.abort();
    expect((await one).aborted).toBe(true);
    await runner.killAll();
    const ended = await two;
    // ffmpeg catches SIGTERM and exits by itself with a failure code.
    expect(ended.signal === 'SIGTERM' || (ended.code !== null && ended.code !== 0)).toBe(true);
    expect(runner.running).toBe(0);
  });

  it('rejects when the binary does not exist', async () => {
    await expect(new ProcessRunner().run('/nonexistent/ffmpeg', [])).rejects.toThrow(/ENOENT/);
  });
});

describe('MediaProber', () => {
  it('probes a real file and names a non-media file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-'));
    const runner = new ProcessRunner();
    const clip = join(dir, 'clip.mp4');
    await runner.run(FFMPEG, [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=96x64:rate=10',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    const prober = new MediaProber(async () => FFPROBE, runner);
    expect(await prober.probe(clip)).toMatchObject({ kind: 'video', width: 96, height: 64, fps: 10, hasAudio: false });
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello');
    await expect(prober.probe(text)).rejects.toThrow(/cannot read notes\.txt: .*Invalid data/);
  });

  it('remembers answers for an unchanged local file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-cache-'));
    const runner = new ProcessRunner();
    let runs = 0;
    const counting = {
      run: (...args: Parameters<ProcessRunner['run']>) => ((runs += 1), runner.run(...args)),
    } as ProcessRunner;
    const prober = new MediaProber(async () => FFPROBE, counting);
    const clip = join(dir, 'a.mp4');
    await runner.run(FFMPEG, [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=96x64:rate=10',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    await prober.probe(clip);
    await prober.probe(clip);
    expect(runs).toBe(1);
    await runner.run(FFMPEG, [
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=48x32:rate=10',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    expect(await prober.probe(clip)).toMatchObject({ width: 48 });
    expect(runs).toBe(2);
  });
});
