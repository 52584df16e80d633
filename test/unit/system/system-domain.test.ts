import { describe, expect, it, vi } from 'vitest';
import type { AppSettings, BinaryStatus } from '@common/bridge';
import { createMemoryHostBase } from '../../../electron/services/host/memory-host';
import { createSystemDomain } from '../../../electron/services/system/system-domain';
import { createSettingsDomain } from '../../../electron/services/system/settings-domain';

const FOUND: BinaryStatus[] = [
  { name: 'ffmpeg', path: '/usr/bin/ffmpeg', source: 'path', version: '6.1', error: null },
];

function setUp() {
  const base = createMemoryHostBase();
  const probe = vi.fn(async (_settings: AppSettings) => FOUND);
  const system = createSystemDomain(base, probe).handlers;
  const settings = createSettingsDomain(base, async () => null).handlers;
  return { probe, system, settings };
}

describe("system domain: the host's facts and the media tools", () => {
  it("answers the shell's heartbeat without starting ffmpeg or ffprobe", async () => {
    const { probe, system } = setUp();
    for (let i = 0; i < 12; i += 1)
      expect(await system['system.info']()).toMatchObject({ appVersion: expect.any(String), host: expect.any(String) });
    expect(probe).not.toHaveBeenCalled();
  });

  it('looks for the media tools each time it is asked, with the paths Settings holds then', async () => {
    const { probe, system, settings } = setUp();
    expect(await system['system.checkBinaries']()).toEqual(FOUND);
    await settings['settings.update']({ ffmpegPath: '/opt/ffmpeg/bin/ffmpeg' });
    await system['system.checkBinaries']();
    expect(probe).toHaveBeenCalledTimes(2);
    expect(probe.mock.calls[1][0].ffmpegPath).toBe('/opt/ffmpeg/bin/ffmpeg');
  });
});
