import type { MessageApi } from 'naive-ui';
import type { LibraryExport } from '@common/bridge/downloads';
import { call, onEvent } from '@/bridge';

const jobs = (n: number) => `${n.toLocaleString()} job${n === 1 ? '' : 's'}`;

/**
 * "Export CSV" of the jobs shown: the host writes the file a page at a time, where the user chooses
 * (the desktop app's save dialog) or for this page to fetch once (the web host, whose browser saves
 * it). A long export says how far it is; a cancelled dialog says nothing.
 */
export async function exportShown(query: LibraryExport, message: MessageApi): Promise<void> {
  const note = message.loading('Writing the CSV…', { duration: 0 });
  const stop = onEvent('downloads.exportProgress', ({ written, total }) => {
    note.content = `Writing the CSV: ${written.toLocaleString()} of ${jobs(total)}…`;
  });
  try {
    const answer = await call('downloads.exportCsv', query);
    if (answer === null) return;
    if (answer.url) {
      const link = document.createElement('a');
      link.href = answer.url;
      link.download = '';
      link.click();
    }
    message.success(`Exported ${jobs(answer.count)} as shown${answer.savedTo ? ` to ${answer.savedTo}` : ''}.`);
  } catch (error) {
    message.error(error instanceof Error ? error.message : String(error));
  } finally {
    stop();
    note.destroy();
  }
}
