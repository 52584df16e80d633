import { describe, expect, it } from 'vitest';
import type { AiModel } from '../../../electron/common/api';
import {
  describeFlags,
  describeResolutions,
  formatModels,
  parseModelTypes,
} from '../../../electron/common/catalogue/model-facts';

const model: AiModel = {
  type: 2101,
  label: 'Swap',
  value: 'swap-1',
  provider: 'Acme',
  resolutionList: [{ label: '720p', value: '720p', width: 1280, height: 720, unit_credit: 10 }],
  durationList: [5, 10],
  isPro: true,
  requiresPay: false,
  supportedLastFrame: false,
  supportedExtendPrompt: true,
  maxImageCount: 1,
  maxCount: 4,
};

describe('model facts', () => {
  it('parses --types and names a value that is not a model type', () => {
    expect(parseModelTypes('1501, 2101,1501')).toEqual([1501, 2101]);
    expect(parseModelTypes('1501,1600')).toBe('"1600" is not a model type; use 1501, 1502, 2101');
    expect(parseModelTypes(' , ')).toMatch(/at least one model type/);
  });

  it('states resolutions with size and credits per unit, and only the flags the service gave', () => {
    expect(describeResolutions(model)).toEqual(['720p (1280×720): 10 credits per unit']);
    expect(describeFlags(model)).toEqual([
      'Pro plan required',
      'not marked as paid',
      'no last frame',
      'prompt extension supported',
      'up to 1 image',
      'up to 4 per request',
    ]);
    expect(describeFlags({ type: 1501, label: 'Bare', value: 'b', resolutionList: [] })).toEqual([]);
  });

  it('prints every model with its type, provider and durations', () => {
    const text = formatModels([model]);
    expect(text).toContain('Swap  [swap-1]  Character swap, Acme');
    expect(text).toContain('Durations: 5 s, 10 s');
    expect(formatModels([])).toBe('The service lists no models of these types.');
  });
});
