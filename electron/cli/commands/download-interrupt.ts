import type { DownloadView } from '../../common/bridge/downloads';
import { partPath } from '../../services/downloads/fetch-to-file';
import { targetOf } from '../../services/downloads/queue-names';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** Up to three paths, then how many more. */
function some(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

/**
 * What a Ctrl-C left, said as it is. A run that owns the data folder paused its downloads: the partly
 * downloaded files stay as `.part` beside their targets and the next run resumes them. Beside an open
 * studio the downloads are the studio's, and it goes on with them: telling the user to run the command
 * again (as this once did) sent them to redo what the studio finished by itself.
 */
export function interruptedWords(
  finals: readonly DownloadView[],
  requested: number,
  studio: { own: boolean; kind: string },
): string {
  const saved = finals.filter((d) => d.state === 'saved').length;
  const head = `Interrupted: ${saved} of ${requested} saved${saved > 0 ? ' (listed above)' : ''}.`;
  const open = finals.filter((d) => d.state === 'paused' || d.state === 'queued' || d.state === 'downloading');
  if (open.length === 0) return head;
  if (!studio.own)
    return `${head} The ${studio.kind} that has the data folder open goes on with the other ${files(open.length)}; its Library shows them, so there is nothing to run again.`;
  const partial = open.filter((d) => d.bytes > 0).map((d) => partPath(targetOf(d.folder, d.relativeName)));
  const notBegun = open.length - partial.length;
  const kept =
    partial.length > 0
      ? ` ${files(partial.length)} partly downloaded ${partial.length === 1 ? 'is' : 'are'} kept and paused: ${some(partial)}.`
      : '';
  const waiting = notBegun > 0 ? ` ${files(notBegun)} had not begun.` : '';
  return `${head}${kept}${waiting} Run the same command again to finish ${open.length === 1 ? 'it' : 'them'}.`;
}
