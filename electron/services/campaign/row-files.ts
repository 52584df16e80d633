import { campaignFormats, formatFileName, type CampaignFormat } from '../../common/campaign/campaign-formats';
import type { CampaignRecord, CampaignRowRecord } from '../../common/campaign/record';
import { formatKeyOf } from './row-steps';

/** One file a made row saves: a format's video and the name it takes in the campaign's folder. */
export interface RowFile {
  format: CampaignFormat;
  fileName: string;
  /** Its result link; null until that format is made. */
  url: string | null;
  expiresAt: number | null;
}

/**
 * A row's files, the edited format's first ("07 - Ana.mp4", its link the row's own), then each other
 * format's ("07 - Ana (9x16).mp4"): what the save writes and the manifest lists.
 */
export function rowFiles(
  record: Pick<CampaignRecord, 'template'>,
  row: CampaignRowRecord,
  /** The template's formats, where the caller read them once for many rows. */
  formats: readonly CampaignFormat[] = campaignFormats(record.template.project),
): RowFile[] {
  return formats.map((format, i) => {
    const made = formats.length > 1 ? row.formatResults?.[formatKeyOf(format)] : undefined;
    return {
      format,
      fileName: formatFileName(row.fileName, format),
      url: i === 0 ? (row.resultUrl ?? made?.resultUrl ?? null) : (made?.resultUrl ?? null),
      expiresAt: i === 0 && row.resultUrl ? row.expiresAt : (made?.expiresAt ?? null),
    };
  });
}
