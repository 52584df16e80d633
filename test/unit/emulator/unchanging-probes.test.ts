import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../../electron/common/composition/media-info';
import { UnchangingProbes } from '../../../electron/emulator/media/unchanging-probes';

const facts = (durationMs: number) => ({ kind: 'audio', durationMs }) as unknown as MediaInfo;

describe("the sandbox's probes of its own files", () => {
  let dir: string;
  let results: string;
  let asked: string[];
  let probes: UnchangingProbes;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'unchanging-probes-'));
    results = join(dir, 'files');
    mkdirSync(results);
    asked = [];
    probes = new UnchangingProbes([results], async (path) => {
      asked.push(path);
      if (path.endsWith('bad.mp3')) throw new Error('not media');
      return facts(asked.length);
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('asks ffprobe once for a result read again, and each time for a file elsewhere', async () => {
    const result = join(results, 'a.mp3');
    const fetched = join(dir, 'fetched.mp3');
    writeFileSync(result, 'sound');
    writeFileSync(fetched, 'sound');
    expect(await probes.read(result)).toEqual(await probes.read(result));
    await probes.read(fetched);
    await probes.read(fetched);
    expect(asked).toEqual([result, fetched, fetched]);
  });

  it('reads a result again once its size or time of change moved, and never keeps a failure', async () => {
    const result = join(results, 'a.mp3');
    writeFileSync(result, 'sound');
    await probes.read(result);
    writeFileSync(result, 'a longer sound');
    await probes.read(result);
    utimesSync(result, new Date(2020, 1, 1), new Date(2020, 1, 1));
    await probes.read(result);
    const bad = join(results, 'bad.mp3');
    writeFileSync(bad, 'x');
    await expect(probes.read(bad)).rejects.toThrow('not media');
    await expect(probes.read(bad)).rejects.toThrow('not media');
    expect(asked).toEqual([result, result, result, bad, bad]);
  });

  it("takes a copy's facts from the file it was copied from", async () => {
    const result = join(results, 'copy.mp3');
    writeFileSync(result, 'sound');
    await probes.copied(result, Promise.resolve(facts(1234)));
    expect((await probes.read(result)).durationMs).toBe(1234);
    expect(asked).toEqual([]);
  });
});
