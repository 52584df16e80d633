import { z } from 'zod';
import { SANDBOX_CONNECTION_ID } from '../../common/bridge/connections';
import type { CostEstimate, JobKind } from '../../common/bridge/jobs';
import { creditsText } from '../../common/jobs/cost-model';
import { JOB_KIND_REGISTRY } from '../../common/jobs/kinds';

/** A price for a job on a connection, as the spending gate asks for it. */
export type PriceEstimator = (
  kind: JobKind,
  body: Record<string, unknown>,
  connectionId: string,
) => Promise<CostEstimate | null>;

/** Where the built-in sandbox listens and the key its control routes take. */
type SandboxAccess = () => Promise<{ baseUrl: string; apiKey: string }>;

/** `GET /__sandbox/prices`: credits per create, by the interface's operation name. */
const PriceListAnswer = z.object({
  code: z.literal(1000),
  data: z.object({ flat: z.record(z.string(), z.number().nonnegative()) }),
});

/** What one job of a kind is called in a price's basis ("1 credit a voiceover"). */
const ONE_JOB: Record<JobKind, string> = {
  'avatar-video': 'an avatar video',
  'talking-avatar': 'a talking avatar video',
  tts: 'a voiceover',
  'voice-clone': 'a voice clone',
  lipsync: 'a lip sync',
  'character-swap': 'a character swap',
  'avatar-upload': 'an avatar upload',
};

async function readPriceList(sandbox: { baseUrl: string; apiKey: string }): Promise<Record<string, number>> {
  const response = await fetch(`${sandbox.baseUrl}/__sandbox/prices`, {
    headers: { 'x-api-key': sandbox.apiKey },
    // A loopback answer; a sandbox that hangs must not hold the price question for ever.
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`The sandbox did not give its price list (HTTP ${response.status}).`);
  return PriceListAnswer.parse(await response.json()).data.flat;
}

/**
 * The built-in sandbox's own prices. The service publishes no price for speech, lip sync or videos, so
 * on a real connection those stay honestly unknown until a charge is seen; the sandbox is ours and
 * publishes its table, so a first run on it can say what the work costs and how far the balance goes.
 * The list is read once per sandbox start (one start per address in a host) and kept.
 */
export function sandboxPriceList(sandbox: SandboxAccess): (kind: JobKind) => Promise<CostEstimate | null> {
  const lists = new Map<string, Promise<Record<string, number>>>();
  return async (kind) => {
    const started = await sandbox();
    let list = lists.get(started.baseUrl);
    if (!list) {
      list = readPriceList(started);
      lists.set(started.baseUrl, list);
      // A list that could not be read is asked for again next time, not remembered as missing.
      list.catch(() => lists.delete(started.baseUrl));
    }
    const credits = (await list)[JOB_KIND_REGISTRY[kind].createEndpoint];
    if (credits === undefined) return null;
    return { credits, basis: `the sandbox's price list: ${creditsText(credits)} ${ONE_JOB[kind]}` };
  };
}

/**
 * Prices as the studio publishes them: on the built-in sandbox its own list first; everywhere, the
 * service's model list (character swap). A sandbox list that cannot be read leaves the model list's
 * answer, and the spending gate falls back to the honest unknown for the rest.
 */
export function connectionPriceEstimator(
  modelList: PriceEstimator,
  sandbox: (kind: JobKind) => Promise<CostEstimate | null>,
): PriceEstimator {
  return async (kind, body, connectionId) => {
    const listed = connectionId === SANDBOX_CONNECTION_ID ? await sandbox(kind).catch(() => null) : null;
    return listed ?? modelList(kind, body, connectionId);
  };
}
