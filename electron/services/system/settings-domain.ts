import type { AppSettings, settingsCalls } from '../../common/bridge';
import { StudioError } from '../host/errors';
import type { DomainModule, HostBase } from '../host/types';
import { binaryPathProblem, type MediaBinaryName } from './binaries';
import { appSettingsSpec } from './settings-store';

/** Why a path cannot be used as a media binary, or null; the real check runs the file with -version. */
export type BinaryPathCheck = (binary: MediaBinaryName, path: string) => Promise<string | null>;

export function createSettingsDomain(
  base: Pick<HostBase, 'createStore' | 'emit' | 'log'>,
  checkBinary: BinaryPathCheck = binaryPathProblem,
): DomainModule<typeof settingsCalls> {
  const store = base.createStore(appSettingsSpec);
  return {
    handlers: {
      'settings.get': async () => store.get(),
      'settings.update': async (patch) => {
        // The page may name any file: only one that answers -version as ffmpeg / ffprobe is kept, so
        // system.info and renders never run another program.
        const paths: [MediaBinaryName, string | null | undefined][] = [
          ['ffmpeg', patch.ffmpegPath],
          ['ffprobe', patch.ffprobePath],
        ];
        for (const [binary, path] of paths) {
          const problem = path ? await checkBinary(binary, path) : null;
          if (problem) throw new StudioError(`The ${binary} path was not saved: ${problem}.`, 'invalid-binary');
        }
        const next = store.update((current): AppSettings => ({ ...current, ...patch }));
        base.log.info('settings changed', { fields: Object.keys(patch) });
        base.emit('settings.changed', next);
        return next;
      },
    },
  };
}
