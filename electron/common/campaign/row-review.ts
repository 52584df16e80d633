/**
 * Why a row waits for its user: a worker stopped between writing a create's intent and hearing the
 * service's answer (rows/queue/create-intents.ts), so the job may exist and be charged, and the service
 * offers no way to look it up. Making the row again may pay for that step twice.
 */
export const OUTCOME_UNKNOWN =
  'an earlier attempt at this step may have sent its paid job (its worker stopped mid-way): check the service, then make the row again if nothing was made';

/** A failed row that "retry every failed row" leaves alone: its user makes it again by name once they have checked. */
export function waitsForReview(row: { state: string; problems?: readonly string[] }): boolean {
  return row.state === 'failed' && (row.problems ?? []).includes(OUTCOME_UNKNOWN);
}

/** The rows "retry every failed row" makes again: the failed ones, less those waiting for review unless `unknown` too. */
export function retriedWithTheFailed(row: { state: string; problems?: readonly string[] }, unknown = false): boolean {
  return row.state === 'failed' && (unknown || !waitsForReview(row));
}

/** What a command line or a page says of the rows waiting for review, and how to make them. */
export function reviewNotice(waiting: number): string {
  const one = waiting === 1;
  return `${waiting} failed row${one ? ' waits' : 's wait'} for review: a worker stopped while sending ${one ? 'one of its steps' : 'a step of each'}, which the service may have made and charged. Check the service, then make ${one ? 'it' : 'them'} again by row, or with --retry-failed --retry-unknown.`;
}

/** Why "retry every failed row" sends nothing: no row failed, or each failed row waits for review. */
export function nothingToRetry(rows: readonly { state: string; problems?: readonly string[] }[]): string {
  const waiting = rows.filter(waitsForReview).length;
  return waiting === 0 ? 'No row of the campaign has failed.' : reviewNotice(waiting);
}
