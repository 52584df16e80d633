import { MAX_NUM_FRAMES } from '../../common/api/faces';
import { withStudio } from '../cli-host';
import { mediaNamer } from '../studio-link';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';

/** `studio faces detect URL|FILE`: the faces the service finds, as a readable list or JSON. */
export const facesDetectCommand: CliCommand = {
  name: 'faces detect',
  summary: 'find faces in an image, video or GIF (a local image is sent inline): boxes and landmarks',
  arguments: [
    { name: 'URL|FILE', help: 'an image, video or GIF link, or a local image (sent inline)', required: true },
  ],
  options: [
    { name: '--single-face', help: 'only the largest face' },
    { name: '--crops', help: 'also return a crop of each face' },
    {
      name: '--frames',
      value: 'N',
      help: 'frames of a video or GIF to look at',
      range: { min: 1, max: 1000, integer: true },
    },
    JSON_OPTION,
  ],
  async run(args, io) {
    const [given] = args.positional;
    if (!given || args.positional.length > 1) throw new UsageError('give one link or one local image');
    const framesText = flag(args, '--frames');
    const numFrames = framesText === undefined ? undefined : Number(framesText);
    if (numFrames !== undefined && (!Number.isInteger(numFrames) || numFrames < 1 || numFrames > MAX_NUM_FRAMES)) {
      throw new UsageError(`--frames must be a whole number from 1 to ${MAX_NUM_FRAMES}`);
    }
    return withStudio(args, io, 'reads', async (studio) => {
      // A file named on the command line is the user's own choice: named to the studio, that is its grant.
      const source = await mediaNamer(studio, io.cwd)(given, 'URL|FILE');
      const result = await studio.call('faces.detect', {
        source,
        singleFace: args.flags['--single-face'] === true,
        returnFaceUrl: args.flags['--crops'] === true,
        numFrames,
      });
      if (args.flags['--json']) {
        io.out(JSON.stringify(result, null, 2));
        return EXIT.ok;
      }
      for (const [key, frame] of Object.entries(result.faces_obj ?? {})) {
        io.out(
          `frame ${key}${frame.frame_time === null ? '' : ` at ${frame.frame_time.toFixed(2)} s`}: ${frame.region.length} face(s)`,
        );
        frame.region.forEach((box, i) => {
          io.out(
            `  face ${i + 1}: box x ${box[0]}, y ${box[1]}, ${box[2]}×${box[3]}; landmarks ${frame.landmarks_str[i] ?? ''}${frame.face_urls?.[i] ? `; crop ${frame.face_urls[i]}` : ''}`,
          );
        });
        if (frame.removed?.length) io.out(`  left the picture: ${frame.removed.map((b) => b.join(',')).join('; ')}`);
      }
      return EXIT.ok;
    });
  },
};

/** "0,1.5,3" as seconds, or a usage error naming the entry that is not one. */
function parseSeconds(text: string): number[] {
  return text.split(',').map((part) => {
    const value = Number(part.trim());
    if (part.trim() === '' || !Number.isFinite(value) || value < 0)
      throw new UsageError(`--timestamps: "${part.trim()}" is not a time in seconds`);
    return value;
  });
}

/** `studio faces analyze URL…`: the persons in several pictures, merged across them, left to right. */
export const facesAnalyzeCommand: CliCommand = {
  name: 'faces analyze',
  summary: 'find the persons in several pictures (frames), merged across them, left to right, with their appearances',
  arguments: [{ name: 'URL', help: 'picture links (frames)', required: true, variadic: true }],
  options: [
    { name: '--timestamps', value: 'T,…', help: 'the time of each picture in seconds, one per picture' },
    { name: '--expand', value: 'R', help: 'how far each face box is widened, 0 to 1', range: { min: 0, max: 1 } },
    JSON_OPTION,
  ],
  async run(args, io) {
    const frameUrls = args.positional;
    if (frameUrls.length === 0) throw new UsageError('give at least one picture link');
    const bad = frameUrls.find((u) => !/^https?:\/\/[^\s/]+/i.test(u));
    if (bad) throw new UsageError(`"${bad}" is not an http(s) link; analyze frames reads pictures by link`);
    const timesText = flag(args, '--timestamps');
    const timestamps = timesText === undefined ? undefined : parseSeconds(timesText);
    if (timestamps && timestamps.length !== frameUrls.length)
      throw new UsageError(
        `--timestamps needs one time per picture: ${frameUrls.length} pictures, ${timestamps.length} times`,
      );
    const expandText = flag(args, '--expand');
    const expandRatio = expandText === undefined ? undefined : Number(expandText);
    if (expandRatio !== undefined && !(expandRatio >= 0 && expandRatio <= 1))
      throw new UsageError('--expand must be a number from 0 to 1');
    return withStudio(args, io, 'reads', async (studio) => {
      const result = await studio.call('faces.analyze', { frameUrls, timestamps, expandRatio });
      if (args.flags['--json']) {
        io.out(JSON.stringify(result, null, 2));
        return EXIT.ok;
      }
      if (result.persons.length === 0) {
        io.out(
          `Nobody found in ${result.frameCount} picture(s). Faces are found from 80×80 pixels, turned no more than about 45° from the camera.`,
        );
        return EXIT.ok;
      }
      io.out(`${result.persons.length} person(s) in ${result.frameCount} picture(s), left to right:`);
      for (const p of result.persons) {
        io.out(
          `  ${p.person_id}: confidence ${p.confidence.toFixed(2)}, seen ${p.first_seen.toFixed(2)}–${p.last_seen.toFixed(2)} s in picture(s) ${p.appearances.map((a) => a.frame_idx + 1).join(', ')}; crop ${p.face_url}`,
        );
      }
      return EXIT.ok;
    });
  },
};
