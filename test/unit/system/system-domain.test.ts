import { describe, expect, it, vi } from 'vitest';
import type { AppSettings, BinaryStatus } from '@common/bridge';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { BINARY_PROBE_REUSE_MS, createSystemDomain } from '../../../electron/services/system/system-domain';
import { createSettingsDomain } from '../../../electron/services/system/settings-domain';

const FOUND: BinaryStatus[] = [{ name: 'ffmpeg', path: '/usr/bin/ffmpeg', source: 'path', version: '6.1', error: null }];

function setUp() {
  const base = createMemoryHostBase();
  const probe = vi.fn(async (_settings: AppSettings) => FOUND);
  let clock = 1_000;
  const system = createSystemDomain(base, probe, () => clock).handlers;
  const settings = createSettingsDomain(base, async () => null).handlers;
  return { probe, system, settings, advance: (ms: number) => (clock += ms) };
}

describe('system domain: looking for ffmpeg and ffprobe', () => {
  it('answers the shell\'s heartbeat from one probe a minute, not one per call', async () => {
    const { probe, system, advance } = setUp();
    for (let i = 0; i < 12; i += 1) {
      expect((await system['system.info']()).binaries).toEqual(FOUND);
      advance(5_000);
    }
    // Twelve calls five seconds apart span 55 s: one probe.
    expect(probe).toHaveBeenCalledTimes(1);
    advance(BINARY_PROBE_REUSE_MS);
    await system['system.info']();
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('looks again at once when asked to, and when the paths in Settings change', async () => {
    const { probe, system, settings } = setUp();
    await system['system.info']();
    await system['system.checkBinaries']();
    expect(probe).toHaveBeenCalledTimes(2);
    await system['system.info']();
    expect(probe).toHaveBeenCalledTimes(2);
    await settings['settings.update']({ ffmpegPath: '/opt/ffmpeg/bin/ffmpeg' });
    await system['system.info']();
    expect(probe).toHaveBeenCalledTimes(3);
    expect(probe.mock.calls.at(-1)?.[0].ffmpegPath).toBe('/opt/ffmpeg/bin/ffmpeg');
  });

  it('does not keep a failed probe', async () => {
    const { probe, system } = setUp();
    probe.mockRejectedValueOnce(new Error('spawn EAGAIN'));
    await expect(system['system.info']()).rejects.toThrow('EAGAIN');
    expect((await system['system.info']()).binaries).toEqual(FOUND);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});
