import type { CampaignRecord } from '../../common/campaign/record';
import { inSelection, selectionText, type RowSelection } from '../../common/campaign/row-selection';
import { sheetRow } from '../../common/text/row-label';

/**
 * A campaign started for some rows of its sheet (`--rows 2-301`) goes on with the record it has: its
 * rows of earlier runs stay as they are, but one still waiting to be sent is not this run's to make, so
 * it is cancelled (nothing of it was sent) with why. A later run that names it, or names no rows, makes
 * it again; rows under way finish, since their steps are at the service already.
 */
export function leaveUnchosen(record: CampaignRecord, selection: RowSelection): CampaignRecord {
  const chosen = selectionText(selection);
  return {
    ...record,
    rows: record.rows.map((row) =>
      row.state !== 'pending' || inSelection(selection, sheetRow(row))
        ? row
        : {
            ...row,
            state: 'cancelled' as const,
            problems: [`not among the rows this run was given (${chosen}); a run that includes it makes it`],
          },
    ),
  };
}
