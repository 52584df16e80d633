import type { ApiPathName } from '../common/api';

/**
 * The sandbox's price list: credits per create, by the interface's operation name, for operations whose
 * price the interface does not give. The routes charge from this table and `GET /__sandbox/prices`
 * publishes it, so what the studio is told and what the account is charged cannot drift apart.
 * Character swap is not here: it is billed per started 5 seconds at its resolution's `unit_credit` in
 * the model list (catalogue/definitions.ts), which the list itself publishes.
 */
export const FLAT_PRICES = {
  audioCreate: 1,
  audioClone: 2,
  lipSync: 10,
  avatarCreate: 5,
  avatarVideoCreate: 10,
  talkingAvatarCreate: 10,
  liveCreate: 10,
} as const satisfies Partial<Record<ApiPathName, number>>;

/** Operations priced by the model list rather than by the flat table. */
export const MODEL_LIST_PRICED: readonly ApiPathName[] = ['characterSwapCreate'];

/** What `GET /__sandbox/prices` answers in its `data`. */
export function priceList(): { flat: Record<string, number>; modelList: readonly ApiPathName[] } {
  return { flat: { ...FLAT_PRICES }, modelList: MODEL_LIST_PRICED };
}
