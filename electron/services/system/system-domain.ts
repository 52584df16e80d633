import type { AppSettings, BinaryStatus, systemCalls } from '../../common/bridge';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import { checkExternalUrl } from './external-url';
import { appSettingsSpec } from './settings-store';

/** Finds ffmpeg and ffprobe for the given settings and reports each one's path, source and version. */
export type BinaryProbe = (settings: AppSettings) => Promise<BinaryStatus[]>;

/**
 * How long a probe's answer is reused while the paths in Settings stay the same. The shell's heartbeat
 * reads system.info every few seconds; probing each time started ffmpeg and ffprobe twice every five
 * seconds, for as long as the studio was open.
 */
export const BINARY_PROBE_REUSE_MS = 60_000;

export function createSystemDomain(base: HostBase, probeBinaries: BinaryProbe, now: () => number = Date.now): DomainModule<typeof systemCalls> {
  const settings = base.createStore(appSettingsSpec);
  let probed: { key: string; at: number; answer: Promise<BinaryStatus[]> } | null = null;
  const probe = (fresh: boolean): Promise<BinaryStatus[]> => {
    const current = settings.get();
    const key = JSON.stringify([current.ffmpegPath ?? null, current.ffprobePath ?? null]);
    if (fresh || !probed || probed.key !== key || now() - probed.at > BINARY_PROBE_REUSE_MS) {
      const answer = probeBinaries(current);
      probed = { key, at: now(), answer };
      // A failed probe is not kept: the next ask tries again.
      answer.catch(() => {
        if (probed?.answer === answer) probed = null;
      });
    }
    return probed.answer;
  };
  return {
    handlers: {
      'system.info': async () => ({
        appVersion: base.appVersion,
        host: base.host,
        dataDir: base.dataDir,
        logFile: base.logFile,
        platform: `${process.platform} ${process.arch}, Node ${process.versions.node}`,
        binaries: await probe(false),
      }),
      'system.checkBinaries': () => probe(true),
      'system.openExternal': async (address) => {
        const url = checkExternalUrl(address);
        if (!base.platform.openExternal) {
          throw new StudioError('This host cannot open links itself; the page opens them instead', 'unsupported');
        }
        await base.platform.openExternal(url.href);
      },
      'system.pendingNotices': async () => base.notices.takePending(),
    },
  };
}
