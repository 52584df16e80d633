import { z } from 'zod';
import { call } from './contract';
import { JobFilter, JobSelection, JobSort, MAX_PAGE_JOBS } from './job-pages';

/**
 * `missing` and `changed`: the file was saved, but a later check found it gone, or no longer the bytes
 * that were written (another length or content hash).
 */
export const DOWNLOAD_STATES = [
  'queued',
  'downloading',
  'paused',
  'saved',
  'failed',
  'cancelled',
  'missing',
  'changed',
] as const;
export const DownloadState = z.enum(DOWNLOAD_STATES);
export type DownloadState = z.infer<typeof DownloadState>;

/** Every writer of a result to disk: the Library, the command line, the archive, a campaign, a batch, the Tools page. */
export const COPY_ORIGINS = ['library', 'cli', 'archive', 'campaign', 'batch', 'tools'] as const;
export type CopyOrigin = (typeof COPY_ORIGINS)[number];

/** One file the download manager is fetching or has fetched. Kept on disk beside the job ledger. */
export const DownloadEntry = z.object({
  id: z.string(),
  jobId: z.string(),
  url: z.string(),
  /** The folder chosen, and the name inside it (chosen once, so a restart resumes the same `.part`). */
  folder: z.string(),
  relativeName: z.string(),
  /** The name the template gave, before a numbered suffix made it free (earlier queues lack it). */
  requestedName: z.string().nullable().default(null),
  state: DownloadState,
  /** Why it failed or is paused, in plain words. */
  reason: z.string().nullable(),
  bytes: z.number().nonnegative(),
  totalBytes: z.number().nonnegative().nullable(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  /** Where the file was saved (absolute), once it is. */
  savedPath: z.string().nullable(),
  /** SHA-256 of the saved bytes, taken as they were written (absent in queues of earlier versions). */
  sha256: z.string().nullable().default(null),
  /** The saved file's modification time when its hash was last taken or checked. */
  mtimeMs: z.number().nullable().default(null),
  /** When the saved copy was last found on disk as written. */
  verifiedAt: z.number().nullable().default(null),
  /**
   * The device id (`stat().dev`) of the folder when the copy was saved there: a folder on another device
   * later is a drive unplugged or unmounted (the empty mount point is on the system disk), not a folder
   * emptied, and nothing is written to it in the drive's place.
   */
  folderDev: z.number().nullable().optional(),
  /**
   * The volume the folder was on (its device and when the root of its file system was made), where the
   * file system tells: a device number comes back for another drive or a fresh mount, this does not.
   */
  folderVolume: z.string().nullable().optional(),
  /** When a saved copy was found missing and this download began fetching it again. */
  refetchedAt: z.number().nullable().default(null),
  /**
   * Who saved the copy (its `savedBy`): the queue is the one record of every copy of a result on disk,
   * whoever wrote it, so the archive never doubles a copy and every screen agrees on what is saved.
   */
  origin: z.enum(COPY_ORIGINS),
  /**
   * Queued from a selection and waiting in the queue's table: its name is the one asked for, and the
   * free name (a numbered suffix) is chosen only when it starts, once those before it hold theirs.
   */
  unnamed: z.boolean().optional(),
  batchId: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type DownloadEntry = z.infer<typeof DownloadEntry>;

/** An entry as the page sees it: plus speed and time left while it runs. */
export const DownloadView = DownloadEntry.extend({
  bytesPerSecond: z.number().nullable(),
  secondsLeft: z.number().nullable(),
});
export type DownloadView = z.infer<typeof DownloadView>;

export const DownloadTotals = z.object({
  /** Files under way or next in line: not those waiting for a full disk or a missing drive. */
  active: z.number().int(),
  bytes: z.number(),
  totalBytes: z.number(),
  /** Active downloads whose size the server has not told yet (not in totalBytes). */
  unknownSizes: z.number().int(),
  /** Set when the whole queue is paused (a full disk), with what to do. */
  pausedReason: z.string().nullable(),
  /** Files held by a full disk or a missing drive (pausedReason says which): nothing of them moves. */
  waiting: z.number().int(),
  /** Downloads Cancel all would stop (queued, running or paused), counted in the record, not by the page. */
  open: z.number().int(),
  /** The files of this run (since the queue was last idle) and how many of them are saved. */
  files: z.number().int(),
  saved: z.number().int(),
  /** How far the run is, 0 to 1: each file its share, one not started or of a size not known yet 0. */
  fraction: z.number().min(0).max(1),
});
export type DownloadTotals = z.infer<typeof DownloadTotals>;

const id = z.string().min(1).max(100);
/**
 * The most jobs one call names by id (rows ticked by hand, lost copies to fetch back): their ids stay
 * well under the web host's 2 MB body limit. A selection made by
 * a filter has no such limit: it crosses as the filter, and the host walks it a page at a time.
 */
export const MAX_JOBS_AT_ONCE = 20_000;

/**
 * The jobs a Library action is for: listed, or chosen by a filter (`selection`, which the host walks a
 * page at a time, however many it holds), so selecting all of a large Library sends no list of ids.
 */
const ChosenJobs = {
  jobIds: z.array(id).max(MAX_JOBS_AT_ONCE),
  selection: JobSelection.optional(),
};
const chosen = (request: { jobIds: string[]; selection?: unknown }) =>
  request.jobIds.length > 0 || request.selection !== undefined;
const CHOOSE = 'name the jobs, or a selection of them';

export const ArchiveSettings = z.object({
  /** "Keep a copy of every finished result". */
  enabled: z.boolean(),
  videoFolder: z.string().min(1).max(1000),
  audioFolder: z.string().min(1).max(1000),
  template: z.string().min(1).max(500),
});
export type ArchiveSettings = z.infer<typeof ArchiveSettings>;

/**
 * How transfers run: files at once, a limit for all of them together (bytes per second, null: none), and
 * whether a lost copy of the Library or the archive is fetched back by itself while its link lives.
 */
export const TransferSettings = z.object({
  concurrency: z.number().int().min(1).max(10),
  speedLimit: z
    .number()
    .int()
    .min(16_384)
    .max(10 * 1024 ** 3)
    .nullable(),
  restoreLost: z.boolean().default(true),
});
export type TransferSettings = z.infer<typeof TransferSettings>;

/**
 * What the Library shows of a result besides its state: a still, its length and its size, read from the
 * verified saved copy when there is one, else from what the service's answer says (often nothing).
 */
export const ResultMedia = z.object({
  jobId: z.string(),
  /** A small JPEG of the saved copy (data URL); null for sound, or when no copy can give one. */
  thumbnail: z.string().nullable(),
  durationMs: z.number().nullable(),
  bytes: z.number().nullable(),
  /** Where the facts come from: the saved copy, the service's answer, or nowhere. */
  source: z.enum(['copy', 'service', 'none']),
  /** The saved copy is being read (ffmpeg): a `downloads.mediaRead` event brings the answer. */
  pending: z.boolean(),
  /** Where the page can play the saved copy (the web host); null: the live link is played, if any. */
  playUrl: z.string().nullable(),
});
export type ResultMedia = z.infer<typeof ResultMedia>;

export const DownloadRequest = z
  .object({
    ...ChosenJobs,
    /** An absolute folder path on the host's machine. */
    folder: z.string().min(1).max(1000),
    template: z.string().min(1).max(500).optional(),
    /**
     * Who asks: the Library (the default) remembers the folder and template as the ones it offers next;
     * a command line saves where it was told and leaves the user's remembered choice alone.
     */
    origin: z.enum(['library', 'cli', 'tools']).optional(),
  })
  .refine(chosen, CHOOSE);
export type DownloadRequest = z.infer<typeof DownloadRequest>;

/** A saved copy that went missing, to be fetched back to where it was (its folder and name). */
export const LostCopy = z.object({
  jobId: id,
  /** The lost copy's own record: it is fetched back in its place rather than recorded a second time. */
  downloadId: id.optional(),
  folder: z.string().min(1).max(1000),
  relativeName: z.string().min(1).max(1000),
});
export type LostCopy = z.infer<typeof LostCopy>;

/** The most downloads under way `downloads.list` answers; the totals count them all. */
export const MAX_LISTED_DOWNLOADS = 1_000;

/** The names a selection's preview shows: its first jobs (`more` says others follow), not a million. */
export const PREVIEW_JOBS = 200;

/** The Library as it is shown (its filter and order), for "Export CSV": the host walks it, no ids cross. */
export const LibraryExport = z
  .object({ filter: JobFilter, sort: JobSort.optional(), descending: z.boolean().optional() })
  .strict();
export type LibraryExport = z.infer<typeof LibraryExport>;

export const downloadsCalls = {
  /**
   * The downloads under way (queued and started, running, paused), newest first, at most
   * MAX_LISTED_DOWNLOADS: a copy saved, failed or cancelled is asked for by its job (`downloads.ofJobs`).
   */
  'downloads.list': call(z.tuple([]), z.array(DownloadView).max(MAX_LISTED_DOWNLOADS)),
  /** The entries of a page of jobs (each one's copies and downloads, oldest first): a lookup by job, not the whole list. */
  'downloads.ofJobs': call(z.tuple([z.array(id).max(MAX_PAGE_JOBS)]), z.array(DownloadView)),
  /** Checks every saved copy is still on disk as written, a page of the record at a time; each lost one is a `downloads.changed`. */
  'downloads.check': call(z.tuple([]), z.object({ checked: z.number().int(), lost: z.number().int() })),
  /** Pauses every queued or running download; answers how many. */
  'downloads.pauseAll': call(z.tuple([]), z.number().int()),
  /** Cancels every download not yet saved (their partial files are removed); answers how many. */
  'downloads.cancelAll': call(z.tuple([]), z.number().int()),
  'downloads.totals': call(z.tuple([]), DownloadTotals),
  /** Queues the results of these jobs into the folder; answers the entries (skipped jobs are named). */
  'downloads.start': call(
    z.tuple([DownloadRequest]),
    z.object({
      queued: z.array(DownloadView),
      skipped: z.array(z.object({ jobId: z.string(), reason: z.string() })),
      /** Ids among `queued` already saved under these names in this folder. */
      already: z.array(z.string()),
      /** New downloads of jobs that already have a saved copy elsewhere or under another name. */
      copies: z.number().int(),
      /**
       * A selection is queued a page at a time: the answer is its first page, and the rest goes on in the
       * host (a notice tells its end). Absent or false: the answer is every job asked for.
       */
      more: z.boolean().optional(),
    }),
  ),
  /**
   * Fetches lost copies back to where they were (a name taken since gets a numbered suffix); answers the
   * queued downloads (a job whose result is no longer available is left out). The command line's
   * `download --missing`; it leaves the remembered folder and template alone.
   */
  'downloads.restore': call(z.tuple([z.array(LostCopy).min(1).max(MAX_JOBS_AT_ONCE)]), z.array(DownloadView)),
  /**
   * Saves one job's result as this exact file (an absolute path), through the verified download, and
   * answers once it is saved or has failed: the command line's `--out FILE`. An intact copy already
   * there is answered as it is; a lost or changed one is fetched again in its place.
   */
  'downloads.saveCopy': call(
    z.tuple([z.object({ jobId: id, path: z.string().min(1).max(4096), origin: z.enum(['cli', 'tools']) })]),
    DownloadView,
  ),
  /**
   * The names these jobs would be saved under with this template (or why one is skipped), and each
   * result's size where a saved copy tells it (null: not known until it downloads). A selection answers
   * its first PREVIEW_JOBS jobs and `more` when others follow.
   */
  'downloads.preview': call(
    z.tuple([z.object({ ...ChosenJobs, template: z.string().min(1).max(500) }).refine(chosen, CHOOSE)]),
    z.object({
      rows: z.array(
        z.object({
          jobId: z.string(),
          name: z.string().nullable(),
          reason: z.string().nullable(),
          bytes: z.number().nullable(),
        }),
      ),
      more: z.boolean(),
    }),
  ),
  /**
   * Renames the saved copies of these jobs after another template by moving the files (no fetch); a
   * selection is walked a page at a time. Answers how many files moved, how many jobs were skipped, and
   * why the first few of those were.
   */
  'downloads.rename': call(
    z.tuple([z.object({ ...ChosenJobs, template: z.string().min(1).max(500) }).refine(chosen, CHOOSE)]),
    z.object({
      moved: z.number().int(),
      skipped: z.number().int(),
      reasons: z.array(z.object({ jobId: z.string(), reason: z.string() })).max(20),
    }),
  ),
  /**
   * "Export CSV": the host writes the jobs shown, a page at a time, to a file the user chooses (the
   * desktop app's save dialog) or, in the web host, to one its page fetches once at `url`. Null: the
   * dialog was cancelled. `downloads.exportProgress` tells how far a long one is.
   */
  'downloads.exportCsv': call(
    z.tuple([LibraryExport]),
    z.object({ count: z.number().int(), savedTo: z.string().nullable(), url: z.string().nullable() }).nullable(),
  ),
  'downloads.pause': call(z.tuple([id]), DownloadView),
  /** Continues a paused download, or tries a failed one again from where it stopped. */
  'downloads.resume': call(z.tuple([id]), DownloadView),
  'downloads.cancel': call(z.tuple([id]), DownloadView),
  /** Resumes every download after the queue paused itself (a full disk). */
  'downloads.resumeAll': call(z.tuple([]), DownloadTotals),
  /** Checks a folder typed in the web host (no native dialog there): exists or can be made, writable. */
  'downloads.checkFolder': call(
    z.tuple([z.string().max(1000)]),
    z.object({ folder: z.string(), ok: z.boolean(), message: z.string() }),
  ),
  /** Desktop only: a native folder dialog; null when cancelled or where the host has none. */
  'downloads.chooseFolder': call(z.tuple([]), z.string().nullable()),
  'downloads.showInFolder': call(z.tuple([id]), z.void()),
  /**
   * Opens a saved copy after checking it is still the file written: the desktop app opens it itself
   * (url null); the web host answers the address its own page opens it at.
   */
  'downloads.openCopy': call(z.tuple([id]), z.object({ url: z.string().nullable() })),
  /** Where finished results are archived (videos and sound apart) and how they are named. */
  'downloads.archiveSettings': call(z.tuple([]), ArchiveSettings),
  /** Checks the folders (when on) and the template, saves, and archives what is missing. */
  'downloads.setArchiveSettings': call(z.tuple([ArchiveSettings]), ArchiveSettings),
  'downloads.transferSettings': call(z.tuple([]), TransferSettings),
  'downloads.setTransferSettings': call(z.tuple([TransferSettings]), TransferSettings),
  /**
   * Thumbnails, lengths and sizes of these jobs' results: what is known answers at once; copies still
   * to be read are marked pending and arrive as `downloads.mediaRead` events (the list never waits).
   */
  'downloads.media': call(z.tuple([z.array(id).min(1).max(200)]), z.array(ResultMedia)),
  /** The remembered folder and template for "Download…". */
  'downloads.preferences': call(
    z.tuple([]),
    z.object({
      folder: z.string().nullable(),
      template: z.string(),
      canChooseFolder: z.boolean(),
      canShowInFolder: z.boolean(),
    }),
  ),
};

export const downloadsEvents = {
  'downloads.changed': DownloadView,
  'downloads.progress': DownloadTotals,
  /** One result's media facts, read from its saved copy after `downloads.media` said pending. */
  'downloads.mediaRead': ResultMedia,
  /** How far an "Export CSV" is: jobs written of those shown. */
  'downloads.exportProgress': z.object({ written: z.number().int(), total: z.number().int() }),
};
