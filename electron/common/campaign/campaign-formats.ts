import { ratioOf, type OutputSize, type Project } from '../composition/document';
import { formatKey, formatsOf } from '../composition/formats';

/**
 * A campaign of a project with several formats makes each row's video in every one of them. The
 * format being edited keeps the file name the user's name template gives ("07 - Ana.mp4"), so a
 * one-format campaign and the rows it left in a folder are as they were; each other format adds its
 * shape before the extension ("07 - Ana (9x16).mp4"), so no two files of a row, nor of two rows whose
 * names differ, can meet.
 */
export interface CampaignFormat {
  /** formatKey ("1080x1920"); null for the format being edited (its result is the row's own). */
  key: string | null;
  output: OutputSize;
  /** "9x16", or "1080x1920" when two formats share a shape: what file names and manifest columns say. */
  tag: string;
}

/** The template's formats, the one being edited first, then the others widest first. */
export function campaignFormats(project: Pick<Project, 'output' | 'formats'>): CampaignFormat[] {
  const all = formatsOf(project as Project);
  const ratio = (o: OutputSize) => ratioOf(o).replace(':', 'x');
  const shared = (o: OutputSize) => all.filter((f) => ratio(f.output) === ratio(o)).length > 1;
  const tag = (o: OutputSize) => (shared(o) ? formatKey(o) : ratio(o));
  const current = all.find((f) => f.current);
  const main: CampaignFormat = { key: null, output: project.output, tag: tag(current?.output ?? project.output) };
  return [main, ...all.filter((f) => !f.current).map((f) => ({ key: f.key, output: f.output, tag: tag(f.output) }))];
}

/** "07 - Ana.mp4" in another format: "07 - Ana (9x16).mp4". */
export function formatFileName(fileName: string, format: Pick<CampaignFormat, 'key' | 'tag'>): string {
  if (format.key === null) return fileName;
  const dot = fileName.lastIndexOf('.');
  const slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  const [stem, ext] = dot > slash + 1 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  return `${stem} (${format.tag})${ext}`;
}

/**
 * Why a campaign cannot go on a queue: several formats. A queued row's creates are recorded, for the
 * worker that takes it over, by row, take and step, not by format: a worker would follow one format's
 * video as another's. Such a campaign runs on this computer until that record names the format.
 */
export function queuedFormatsProblems(project: Pick<Project, 'output' | 'formats'>): string[] {
  const formats = campaignFormats(project);
  if (formats.length === 1) return [];
  return [
    `the project has ${formats.length} formats (${formats.map((f) => f.tag).join(', ')}), and a queue makes one video per row for now: start it without a queue, or remove the other formats.`,
  ];
}
