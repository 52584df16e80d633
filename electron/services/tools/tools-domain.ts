import type { toolsCalls } from '../../common/bridge/tools';
import type { DomainModule } from '../host/types';
import type { StudioServices } from '../host/studio-types';
import { CharacterSwapService } from './character-swap-service';
import { LipSyncService } from './lipsync-service';
import type { ToolDeps } from './tool-deps';

/** The host side of the tools: ffprobe, local files as links (the uploads domain's call), the job engine. */
export function createToolDeps(
  studio: StudioServices,
  probe: ToolDeps['probe'],
  linkLocalMedia: (value: unknown) => Promise<{ value: unknown }>,
): ToolDeps {
  return {
    probe,
    link: async (value) => (await linkLocalMedia(value)).value as typeof value,
    submit: (submission) => studio.jobs.submit(submission),
    swapModels: () => studio.catalogue.models([2101]),
  };
}

/** Lip sync and character swap (paid jobs through the engine, after the checks). A refusal carries its own code. */
export function createToolsDomain(deps: ToolDeps): DomainModule<typeof toolsCalls> {
  const lipsync = new LipSyncService(deps);
  const swap = new CharacterSwapService(deps);
  return {
    handlers: {
      'tools.lipsyncMeasure': (inputs) => lipsync.measure(inputs),
      'tools.lipsyncSend': (inputs) => lipsync.send(inputs),
      'tools.swapQuote': (inputs) => swap.quote(inputs),
      'tools.swapSend': (request) => swap.send(request),
    },
  };
}
