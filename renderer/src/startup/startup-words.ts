import type { StartupState } from '@common/bridge';

/** What the startup screen says of a host's start: what is happening, how far, and the bar's fill. */
export interface StartupWords {
  title: string;
  detail: string;
  /** The bar's fill, 0 to 1; steps done of all when nothing finer is known. */
  fraction: number;
  failed: boolean;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Elapsed time as m:ss (or h:mm:ss), as a user reads a clock. */
export function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function startupWords(state: StartupState): StartupWords {
  if (state.failure !== null)
    return { title: "The studio's records could not be opened", detail: state.failure, fraction: 0, failed: true };
  const records = state.records;
  if (records === null || state.ready) return { title: 'Opening the studio…', detail: '', fraction: 1, failed: false };
  switch (records.stage) {
    case 'upgrading':
      return {
        title: `Upgrading your records (step ${records.step} of ${records.steps})…`,
        detail: 'A step over many jobs can take a minute; it runs once, for this version.',
        fraction: (records.step - 1) / records.steps,
        failed: false,
      };
    case 'journal':
      return {
        title: 'Taking in your job records from the earlier version…',
        detail: `${Math.floor(records.fraction * 100)}% of the old journal read, ${count(records.rows)} changes taken in.`,
        fraction: records.fraction,
        failed: false,
      };
    case 'indexes':
      return {
        title: `Indexing your jobs (${records.step} of ${records.steps})…`,
        detail: 'So that the Library pages, filters and totals answer at once.',
        fraction: (records.step - 1) / records.steps,
        failed: false,
      };
    case 'links':
    case 'copies': {
      const { title, noun, file } = COUNTED[records.stage];
      return {
        title,
        detail:
          records.total === 0
            ? `Reading the ${file}.`
            : `${count(records.done)} of ${count(records.total)} ${noun} taken in.`,
        fraction: records.total > 0 ? records.done / records.total : 0,
        failed: false,
      };
    }
    case 'runs':
      return {
        title: 'Taking in your earlier campaigns and batches…',
        detail: `${Math.floor(records.fraction * 100)}% of their files read, ${count(records.rows)} rows taken in.`,
        fraction: records.fraction,
        failed: false,
      };
  }
}

/** How the screen names the old records counted entry by entry. */
const COUNTED = {
  links: {
    title: 'Taking in your storage links from the earlier version…',
    noun: 'links',
    file: 'old record of uploads',
  },
  copies: {
    title: 'Taking in your saved copies from the earlier version…',
    noun: 'copies',
    file: 'old download queue',
  },
} as const;
