import type { AppSettings, BinaryStatus, systemCalls } from '../../common/bridge';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import { checkExternalUrl } from './external-url';
import { appSettingsSpec } from './settings-store';

/** Finds ffmpeg and ffprobe for the given settings and reports each one's path, source and version. */
export type BinaryProbe = (settings: AppSettings) => Promise<BinaryStatus[]>;

export function createSystemDomain(
  base: Pick<HostBase, 'appVersion' | 'createStore' | 'dataDir' | 'host' | 'logFile' | 'notices' | 'platform'>,
  probeBinaries: BinaryProbe,
): DomainModule<typeof systemCalls> {
  const settings = base.createStore(appSettingsSpec);
  const startedAt = Date.now();
  return {
    handlers: {
      'system.info': async () => ({
        appVersion: base.appVersion,
        host: base.host,
        dataDir: base.dataDir,
        logFile: base.logFile,
        platform: `${process.platform} ${process.arch}, Node ${process.versions.node}`,
        startedAt,
      }),
      'system.checkBinaries': () => probeBinaries(settings.get()),
      'system.openExternal': async (address) => {
        const url = checkExternalUrl(address);
        if (!base.platform.openExternal) {
          throw new StudioError('This host cannot open links itself; the page opens them instead', 'unsupported');
        }
        await base.platform.openExternal(url.href);
      },
      'system.pendingNotices': async () => base.notices.takePending(),
      // Once the domains exist, the start is over (services/host/starting-host.ts answers until then).
      'system.startup': async () => ({ ready: true, records: null, elapsedMs: 0, failure: null }),
    },
  };
}
