import { AI_MODEL_TYPES, type AiModel, type AiModelType } from '../api/models';

/** What each model type is for, in the words the Tools workspace and `studio models` use. */
export const AI_MODEL_TYPE_LABELS: Record<AiModelType, string> = {
  1501: 'Image to video',
  1502: 'Text to video',
  2101: 'Character swap',
};

/** Parses "1501,2101" (the CLI's --types) into model types, naming any value that is not one. */
export function parseModelTypes(text: string): AiModelType[] | string {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return `give at least one model type (${AI_MODEL_TYPES.join(', ')})`;
  const types: AiModelType[] = [];
  for (const part of parts) {
    const n = Number(part);
    if (!(AI_MODEL_TYPES as readonly number[]).includes(n))
      return `"${part}" is not a model type; use ${AI_MODEL_TYPES.join(', ')}`;
    types.push(n as AiModelType);
  }
  return [...new Set(types)];
}

/** One line per resolution: "720p (1280×720): 10 credits per unit". */
export function describeResolutions(model: AiModel): string[] {
  return model.resolutionList.map(
    (r) => `${r.label} (${r.width}×${r.height}): ${r.unit_credit} credit${r.unit_credit === 1 ? '' : 's'} per unit`,
  );
}

/** The yes/no facts of a model, only the ones the service stated. */
export function describeFlags(model: AiModel): string[] {
  const facts: string[] = [];
  if (model.isPro !== undefined) facts.push(model.isPro ? 'Pro plan required' : 'any plan');
  if (model.requiresPay !== undefined) facts.push(model.requiresPay ? 'requires payment' : 'not marked as paid');
  if (model.supportedLastFrame !== undefined)
    facts.push(model.supportedLastFrame ? 'last frame supported' : 'no last frame');
  if (model.supportedExtendPrompt !== undefined)
    facts.push(model.supportedExtendPrompt ? 'prompt extension supported' : 'no prompt extension');
  if (model.generate_audio) facts.push('generates audio');
  if (model.maxImageCount !== undefined)
    facts.push(`up to ${model.maxImageCount} image${model.maxImageCount === 1 ? '' : 's'}`);
  if (model.maxCount !== undefined) facts.push(`up to ${model.maxCount} per request`);
  return facts;
}

export function describeDurations(model: AiModel): string {
  return model.durationList?.length ? model.durationList.map((d) => `${d} s`).join(', ') : '—';
}

/** The model list as a plain-text table for the command line. */
export function formatModels(models: readonly AiModel[]): string {
  if (models.length === 0) return 'The service lists no models of these types.';
  return models
    .map((m) =>
      [
        `${m.label}  [${m.value}]  ${AI_MODEL_TYPE_LABELS[m.type as AiModelType] ?? `type ${m.type}`}${m.provider ? `, ${m.provider}` : ''}`,
        ...describeResolutions(m).map((r) => `  ${r}`),
        `  Durations: ${describeDurations(m)}`,
        `  ${describeFlags(m).join('; ') || 'no further facts stated'}`,
      ].join('\n'),
    )
    .join('\n\n');
}
