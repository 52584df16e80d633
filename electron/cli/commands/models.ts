import { AI_MODEL_TYPES } from '../../common/api/models';
import { formatModels, parseModelTypes } from '../../common/catalogue/model-facts';
import { withStudio } from '../cli-host';
import { EXIT, UsageError, flag, type CliCommand } from '../command';
import { JSON_OPTION } from '../common-options';

/** `studio models [--types 1501,1502,2101] [--json]`: the service's AI model list with costs per unit. */
export const modelsCommand: CliCommand = {
  name: 'models',
  summary: 'the AI models (image/text to video, character swap): resolutions, credits per unit, durations, flags',
  options: [{ name: '--types', value: 'T,…', help: 'model types to list (default 1501,1502,2101)' }, JSON_OPTION],
  async run(args, io) {
    const types = parseModelTypes(flag(args, '--types') ?? AI_MODEL_TYPES.join(','));
    if (typeof types === 'string') throw new UsageError(`--types: ${types}`);
    return withStudio(args, io, 'reads', async (studio) => {
      const models = await studio.call('catalogue.models', types);
      io.out(args.flags['--json'] ? JSON.stringify(models, null, 2) : formatModels(models));
      return EXIT.ok;
    });
  },
};
