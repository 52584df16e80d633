import type { SubmitResult } from '../../common/bridge/jobs';
import type { SwapInputs, SwapQuote, SwapSend } from '../../common/bridge/tools';
import { CHARACTER_SWAP_RESOLUTIONS, type CharacterSwapResolution } from '../../common/api/character-swap';
import { swapCost, swapInputChecks, swapModelOptions, swapSeconds } from '../../common/tools/character-swap';
import { refuseOnErrors, ToolRefusal, type ToolDeps } from './tool-deps';

/**
 * Character swap: the resolutions and their `unit_credit` come from the model list (type 2101), the
 * billed seconds from the duration given or the video's own length, measured on the host. The cost is
 * quoted before sending and the send is refused unless the user confirmed that very figure.
 */
export class CharacterSwapService {
  constructor(private readonly deps: ToolDeps) {}

  async quote(inputs: SwapInputs): Promise<SwapQuote> {
    const [models, image, video] = await Promise.all([
      this.deps.swapModels().then(swapModelOptions),
      this.deps.probe(inputs.image),
      this.deps.probe(inputs.video),
    ]);
    if (models.length === 0)
      throw new ToolRefusal(['The service lists no character swap model (type 2101), so no price can be shown.']);
    const model = inputs.model === undefined ? models[0] : models.find((m) => m.value === inputs.model);
    if (!model)
      throw new ToolRefusal([
        `"${inputs.model}" is not a character swap model of the list (${models.map((m) => m.value).join(', ')}).`,
      ]);
    const resolution =
      inputs.resolution === undefined
        ? (model.resolutions.find((r) => r.value === '720p') ?? model.resolutions[0])
        : model.resolutions.find((r) => r.value === inputs.resolution);
    if (!resolution)
      throw new ToolRefusal([
        `${model.label} offers ${model.resolutions.map((r) => r.value).join(', ')}, not ${inputs.resolution}.`,
      ]);
    const checks = swapInputChecks(image, video, inputs.duration);
    if (!(CHARACTER_SWAP_RESOLUTIONS as readonly string[]).includes(resolution.value)) {
      checks.push({
        level: 'error',
        code: 'resolution',
        message: `The request takes ${CHARACTER_SWAP_RESOLUTIONS.join(', ')}; the model's ${resolution.value} cannot be sent.`,
      });
    }
    const seconds = swapSeconds(inputs.duration, video);
    const cost = seconds === null ? null : swapCost(seconds, resolution.unitCredit, resolution.value);
    return {
      models,
      model: model.value,
      resolution: resolution.value,
      unitCredit: resolution.unitCredit,
      seconds,
      detected: inputs.duration === undefined,
      credits: cost?.credits ?? null,
      basis: cost?.basis ?? 'The cost is known once the duration is.',
      image,
      video,
      checks,
    };
  }

  async send(request: SwapSend): Promise<SubmitResult> {
    const quote = await this.quote(request);
    refuseOnErrors(quote.checks);
    if (quote.credits !== request.confirmedCredits || quote.seconds === null) {
      throw new ToolRefusal([
        `The cost is now ${quote.credits ?? 'unknown'} credits (${quote.basis}), not the ${request.confirmedCredits} you confirmed; confirm it again.`,
      ]);
    }
    const links = await this.deps.link({ image: request.image, video: request.video });
    const prompt = request.prompt?.trim();
    return this.deps.submit({
      kind: 'character-swap',
      body: {
        image: links.image,
        video: links.video,
        duration: quote.seconds,
        resolution: quote.resolution as CharacterSwapResolution,
        mode: request.mode ?? 'animate',
        ...(prompt && { prompt }),
        ...(quote.models.length > 1 || request.model !== undefined ? { model_name: quote.model } : {}),
      },
      ...(request.confirmDuplicate && { confirmDuplicate: true }),
      // The figure the user saw; the engine prices the body again and refuses a different one.
      confirmation: request.confirmation ?? { by: 'user', credits: request.confirmedCredits },
    });
  }
}
