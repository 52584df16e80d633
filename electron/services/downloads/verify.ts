import { resolveMediaBinary, type ResolveOptions } from '../system/binaries';
import { MediaProber } from '../media/probe';
import { ProcessRunner } from '../media/process';

/** ffprobe reads the finished `.part` before it gets its name: a result that is not media never does. */
export function ffprobeVerifier(
  settings: () => ResolveOptions['settings'] = () => undefined,
): (path: string) => Promise<void> {
  const prober = new MediaProber(
    async () => (await resolveMediaBinary('ffprobe', { settings: settings() })).path,
    new ProcessRunner(),
  );
  return async (path) => void (await prober.probe(path));
}
