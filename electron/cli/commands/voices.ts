import { connectionName, withStudio } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';

/** `studio voices list [--from 3|4] [--json]`: the voices of the connection new work goes to. */
export const voicesListCommand: CliCommand = {
  name: 'voices list',
  summary: 'List the voices: official (3) and your own, clones included (4)',
  options: [
    {
      name: '--from',
      value: 'FROM',
      choices: ['3', '4'],
      help: '3 official voices, 4 your own and clones (default: both)',
    },
    JSON_OPTION,
  ],
  async run(args, io) {
    const from = flag(args, '--from');
    if (from !== undefined && from !== '3' && from !== '4')
      throw new UsageError(`--from must be 3 (official) or 4 (your own), not "${from}"`);
    return withStudio(args, io, 'reads', async (studio) => {
      const voices = await studio.call(
        'catalogue.voices',
        from === '3' ? { from: 3 } : from === '4' ? { from: 4 } : {},
      );
      if (args.flags['--json']) {
        io.out(JSON.stringify(voices, null, 2));
      } else {
        for (const v of voices)
          io.out([v.voice_id, v.name, v.from === 4 ? 'mine' : 'official', v.gender, v.accent, v.useCase].join('\t'));
        io.err(`${voices.length} voices on ${await connectionName(studio, args)}`);
      }
      return EXIT.ok;
    });
  },
};
