import type { LipSyncInputs, LipSyncMeasure } from '../../common/bridge/tools';
import type { PaidConfirmation } from '../../common/bridge/jobs';
import type { SubmitResult } from '../../common/bridge/jobs';
import { lipSyncChecks } from '../../common/composition/media-checks';
import { refuseOnErrors, type ToolDeps } from './tool-deps';

/**
 * Lip sync: both inputs measured with ffprobe on the host and checked against the interface's limits
 * (60 s, 300 MB, 60 fps refused; above 25 fps and unequal lengths warned) before the job goes to the
 * engine. Sending measures again, so no caller can skip the checks.
 */
export class LipSyncService {
  constructor(private readonly deps: Pick<ToolDeps, 'probe' | 'link' | 'submit'>) {}

  async measure(inputs: LipSyncInputs): Promise<LipSyncMeasure> {
    const [video, audio] = await Promise.all([this.deps.probe(inputs.video), this.deps.probe(inputs.audio)]);
    return { video, audio, checks: lipSyncChecks(video, audio) };
  }

  async send(
    inputs: LipSyncInputs & { confirmDuplicate?: boolean; confirmation: PaidConfirmation },
  ): Promise<SubmitResult> {
    refuseOnErrors((await this.measure(inputs)).checks);
    const links = await this.deps.link({ video: inputs.video, audio: inputs.audio });
    return this.deps.submit({
      kind: 'lipsync',
      body: { video_url: links.video, audio_url: links.audio },
      confirmation: inputs.confirmation,
      ...(inputs.confirmDuplicate && { confirmDuplicate: true }),
    });
  }
}
