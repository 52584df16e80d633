import type { CampaignRowRecord } from '@common/campaign/record';

/** A campaign's row as a record holds it: nothing made yet, no values, its file `N.mp4`, unless told otherwise. */
export function campaignRow(
  n: number,
  state: CampaignRowRecord['state'],
  extra: Partial<CampaignRowRecord> = {},
): CampaignRowRecord {
  return {
    row: n,
    values: {},
    fileName: `${n}.mp4`,
    state,
    problems: [],
    take: 0,
    voiceovers: {},
    resultUrl: null,
    expiresAt: null,
    savedAt: null,
    ...extra,
  };
}
