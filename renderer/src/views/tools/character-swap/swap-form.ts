import type { SwapModelOption } from '@common/tools/character-swap';

/** What each mode does, in the words the form shows beside the choice. */
export const SWAP_MODES = [
  {
    value: 'animate',
    label: 'Animate',
    detail:
      'Your character comes to life with the motion of the source video: the result shows the character from the image, moving as the person in the video moves.',
  },
  {
    value: 'replace',
    label: 'Replace',
    detail:
      'The person in the source video is replaced by your character; the scene, the camera and everything else in the video stay as they are.',
  },
] as const;
export type SwapMode = (typeof SWAP_MODES)[number]['value'];

/** The resolution a model starts on: 720p (the interface's default) when it offers it, else its first. */
export function defaultResolution(model: SwapModelOption | undefined): string | null {
  if (!model) return null;
  return (model.resolutions.find((r) => r.value === '720p') ?? model.resolutions[0])?.value ?? null;
}

export function resolutionOptions(model: SwapModelOption | undefined): { label: string; value: string }[] {
  return (model?.resolutions ?? []).map((r) => ({
    label: `${r.value} (${r.width}×${r.height}) · ${r.unitCredit} credits per started 5 s`,
    value: r.value,
  }));
}
