import { extname } from 'node:path';
import type { DownloadView } from '../../common/bridge/downloads';
import type { JobRecord } from '../../common/bridge/jobs';
import { checkTemplate, renderTemplate, safeRelativeName } from '../../common/file-names';
import type { DownloadManager } from './download-manager';
import { jobNameFields } from './job-files';

/**
 * Renames the saved copies of these jobs (the user's, not the archive's, which follow its own
 * template) after another template, in their folders, by moving the files: nothing is fetched, so it
 * works after the links expired. A copy not on disk as written is skipped and says why.
 */
export async function renameCopies(
  service: { manager: DownloadManager },
  deps: { job(id: string): JobRecord; projectName(id: string): Promise<string | null> },
  jobIds: readonly string[],
  template: string,
): Promise<{ moved: DownloadView[]; skipped: { jobId: string; reason: string }[] }> {
  const problem = checkTemplate(template);
  if (problem) throw new Error(problem);
  const moved: DownloadView[] = [];
  const skipped: { jobId: string; reason: string }[] = [];
  for (const jobId of jobIds) {
    let job: JobRecord;
    try {
      job = deps.job(jobId);
    } catch {
      skipped.push({ jobId, reason: 'No such job in the library.' });
      continue;
    }
    const copies = service.manager.forJob(jobId).filter((d) => d.origin !== 'archive' && d.state === 'saved');
    await service.manager.verifySaved({ deep: false, ids: copies.map((c) => c.id) });
    const onDisk = copies.filter((c) => service.manager.get(c.id).state === 'saved');
    if (onDisk.length === 0) {
      skipped.push({ jobId, reason: 'No saved copy of it is on disk to rename.' });
      continue;
    }
    const projectName = job.projectId ? await deps.projectName(job.projectId) : null;
    const rendered = renderTemplate(template, jobNameFields(job, { projectName }));
    for (const copy of onDisk)
      moved.push(
        await service.manager.moveSaved(copy.id, safeRelativeName(rendered, extname(copy.relativeName).slice(1))),
      );
  }
  return { moved, skipped };
}
