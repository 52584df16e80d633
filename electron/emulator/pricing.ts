/**
 * Flat credit prices of the sandbox for operations whose price the interface does not give.
 * Character swap follows the documented per-5-second table (characterSwapCost in common/api).
 */
export const FLAT_PRICES = {
  tts: 1,
  clone: 2,
  lipsync: 10,
  avatar: 5,
  avatar_video: 10,
  talking_avatar: 10,
  live: 10,
} as const;
