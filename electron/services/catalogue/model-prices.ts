import type { AiModel, AiModelType } from '../../common/api/models';
import type { CostEstimate, JobKind } from '../../common/bridge/jobs';
import { swapCost, swapModelOptions } from '../../common/tools/character-swap';

/**
 * The cost of a job priced by the AI model list, for the ledger and the Library: a character swap is
 * billed per started 5 seconds at its resolution's `unit_credit` in the list (type 2101), of the model
 * the body names (else the first). Null where the list does not price the job, or does not know its
 * model or resolution: the job-kind registry's own estimate then stands.
 */
export function modelPriceEstimator(
  models: (types: AiModelType[]) => Promise<AiModel[]>,
): (kind: JobKind, body: Record<string, unknown>) => Promise<CostEstimate | null> {
  return async (kind, body) => {
    if (kind !== 'character-swap' || typeof body.duration !== 'number') return null;
    const options = swapModelOptions(await models([2101]));
    const model = typeof body.model_name === 'string' ? options.find((m) => m.value === body.model_name) : options[0];
    const wanted = (typeof body.resolution === 'string' ? body.resolution : '720p').toLowerCase();
    const resolution = model?.resolutions.find((r) => r.value.toLowerCase() === wanted);
    return resolution ? swapCost(body.duration, resolution.unitCredit, resolution.value) : null;
  };
}
