import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MAX_NUM_FRAMES } from '../../common/api/faces';
import { FacesService } from '../../services/faces/faces-service';
import { openCliHost } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand } from '../command';

/** `studio faces detect URL|FILE`: the faces the service finds, as a readable list or JSON. */
export const facesDetectCommand: CliCommand = {
  name: 'faces detect',
  usage: 'faces detect URL|FILE [--single-face] [--crops] [--frames N] [--json]',
  summary: 'find faces in an image, video or GIF (a local image is sent inline): boxes and landmarks',
  valueFlags: ['--frames'],
  async run(args, io) {
    const [given] = args.positional;
    if (!given || args.positional.length > 1) throw new UsageError('give one link or one local image');
    const framesText = flag(args, '--frames');
    const numFrames = framesText === undefined ? undefined : Number(framesText);
    if (numFrames !== undefined && (!Number.isInteger(numFrames) || numFrames < 1 || numFrames > MAX_NUM_FRAMES)) {
      throw new UsageError(`--frames must be a whole number from 1 to ${MAX_NUM_FRAMES}`);
    }
    // A file named on the command line is the user's own choice: that is its grant.
    const source = /^https?:\/\//i.test(given) ? given : pathToFileURL(resolve(io.cwd, given)).href;
    const host = openCliHost(args, io, 'reads');
    try {
      const faces = new FacesService({
        activeClient: async () => {
          const { id } = await host.target.active();
          return { connectionId: id, client: await host.target.client(id) };
        },
        localPath: (reference) => (reference === source ? fileURLToPath(reference) : null),
      });
      const result = await faces.detect({ source, singleFace: args.flags['--single-face'] === true, returnFaceUrl: args.flags['--crops'] === true, numFrames });
      if (args.flags['--json']) {
        io.out(JSON.stringify(result, null, 2));
        return EXIT.ok;
      }
      for (const [key, frame] of Object.entries(result.faces_obj ?? {})) {
        io.out(`frame ${key}${frame.frame_time === null ? '' : ` at ${frame.frame_time.toFixed(2)} s`}: ${frame.region.length} face(s)`);
        frame.region.forEach((box, i) => {
          io.out(`  face ${i + 1}: box x ${box[0]}, y ${box[1]}, ${box[2]}×${box[3]}; landmarks ${frame.landmarks_str[i] ?? ''}${frame.face_urls?.[i] ? `; crop ${frame.face_urls[i]}` : ''}`);
        });
        if (frame.removed?.length) io.out(`  left the picture: ${frame.removed.map((b) => b.join(',')).join('; ')}`);
      }
      return EXIT.ok;
    } finally {
      await host.close();
    }
  },
};
