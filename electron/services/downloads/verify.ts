import { basename } from 'node:path';
import { MediaProbeError } from '../../common/composition/media-info';
import { resolveMediaBinary, type ResolveOptions } from '../system/binaries';
import { movieBoxesOf } from '../media/iso-boxes';
import { MediaProber } from '../media/probe';
import { ProcessRunner } from '../media/process';

/**
 * Checks a finished `.part` is media before it takes its name: a result that is not media never does.
 * MP4/MOV/M4A (nearly every result) are checked in this process by their box structure, because an
 * ffprobe per saved file was the biggest cost of a campaign row (starting a process from a large one);
 * that check also refuses one cut short, which ffprobe lets through. Anything else, or a shape the box
 * walk does not decide, is read by `probe` (ffprobe), whose error names what is wrong with it.
 */
export function mediaVerifier(probe: (path: string) => Promise<unknown>): (path: string) => Promise<void> {
  return async (path) => {
    const boxes = await movieBoxesOf(path);
    if (boxes.kind === 'whole') return;
    if (boxes.kind === 'broken') throw new MediaProbeError(`cannot read ${basename(path)}: ${boxes.reason}`);
    await probe(path);
  };
}

/** The verifier on ffprobe as the settings choose it (the downloads queue's and recovered copies'). */
export function ffprobeVerifier(
  settings: () => ResolveOptions['settings'] = () => undefined,
): (path: string) => Promise<void> {
  const prober = new MediaProber(
    async () => (await resolveMediaBinary('ffprobe', { settings: settings() })).path,
    new ProcessRunner(),
  );
  return mediaVerifier((path) => prober.probe(path));
}
