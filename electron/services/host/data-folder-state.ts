import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { connectionsSpec } from '../connections/connection-manager';
import { downloadPreferencesSpec } from '../downloads/downloads-service';
import { DATABASE_FILE } from '../records/database';
import { appSettingsSpec } from '../system/settings-store';
import { LOCK_FILE } from './data-folder-lock';
import { OWNER_RECORD_FILE } from './owner-record';

/**
 * Entries only a studio puts in a data folder: the records database, the job ledger of earlier versions
 * (`jobs`, where its journal is kept once imported), the log folder, the records every host
 * writes on its first start, and the files of a host that has it open. One of them is enough; a folder
 * with none (empty, or someone else's) is not a data folder, however it was named.
 */
const STUDIO_MARKS: readonly string[] = [
  DATABASE_FILE,
  'jobs',
  'logs',
  `${appSettingsSpec.name}.json`,
  `${connectionsSpec.name}.json`,
  `${downloadPreferencesSpec.name}.json`,
  LOCK_FILE,
  OWNER_RECORD_FILE,
];

/** What is wrong with a path given as the data folder. */
export type DataFolderProblem = 'missing' | 'not-a-folder' | 'not-a-data-folder' | 'unreadable' | 'not-created';

/**
 * A data folder that cannot be used as asked: the command stops before opening anything (exit 4,
 * "unavailable"), naming the path, how it was named and what is wrong, and creates nothing there.
 */
export class DataFolderUnusableError extends Error {
  override name = 'DataFolderUnusableError';
  constructor(
    readonly dataDir: string,
    readonly problem: DataFolderProblem,
    message: string,
  ) {
    super(message);
  }
}

const WHAT_IS_WRONG: Record<DataFolderProblem, string> = {
  missing: 'does not exist',
  'not-a-folder': 'is a file, not a folder',
  'not-a-data-folder': 'holds no studio records (no jobs, settings or connections): it is not a data folder',
  unreadable: 'cannot be read',
  'not-created': 'could not be created',
};

const ADVICE: Partial<Record<DataFolderProblem, string>> = {
  missing: ' Check the path: this command works on an existing data folder and never creates one.',
  'not-a-data-folder': ' Check the path: this command works on an existing data folder and never creates one.',
  'not-a-folder': ' Give the folder that holds the studio records (--data-dir DIR or STUDIO_DATA_DIR), not a file.',
};

function unusable(
  dataDir: string,
  namedBy: string,
  problem: DataFolderProblem,
  said = WHAT_IS_WRONG[problem],
): DataFolderUnusableError {
  const advice = ADVICE[problem] ?? '';
  return new DataFolderUnusableError(
    dataDir,
    problem,
    `The data folder ${dataDir} (${namedBy}) ${said}. Nothing was read or written.${advice}`,
  );
}

/** The folder's entries, or what is wrong with it as a folder. */
function entriesOf(dataDir: string, namedBy: string): string[] | null {
  let isFolder: boolean;
  try {
    isFolder = statSync(dataDir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // A parent that is a file (ENOTDIR) is a path that cannot be a folder either.
    if (code === 'ENOTDIR')
      throw unusable(dataDir, namedBy, 'not-a-folder', 'cannot be a folder: part of its path is a file');
    throw unusable(dataDir, namedBy, 'unreadable', `cannot be read (${code ?? String(error)})`);
  }
  if (!isFolder) throw unusable(dataDir, namedBy, 'not-a-folder');
  try {
    return readdirSync(dataDir);
  } catch (error) {
    throw unusable(dataDir, namedBy, 'unreadable', `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** Whether the path is a folder now; a file in its place (or in its path) is named as such (exit 4). */
export function folderExists(dataDir: string, namedBy: string): boolean {
  return entriesOf(dataDir, namedBy) !== null;
}

/**
 * For a command whose answer is the folder's own records (its jobs, its downloads): the folder must
 * already be a data folder. Anything else would answer "no jobs" from a folder made for the occasion,
 * a false all-clear for a script with a mistyped path.
 */
export function requireDataFolder(dataDir: string, namedBy: string): void {
  const entries = entriesOf(dataDir, namedBy);
  if (entries === null) throw unusable(dataDir, namedBy, 'missing');
  if (!entries.some((name) => STUDIO_MARKS.includes(name))) throw unusable(dataDir, namedBy, 'not-a-data-folder');
}

/**
 * For a command that may start a data folder (the first `tts`, `campaign run`): made when missing; a
 * file in its place is named as such rather than failing inside mkdir.
 */
export function ensureDataFolder(dataDir: string, namedBy: string): void {
  if (entriesOf(dataDir, namedBy) !== null) return;
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') throw unusable(dataDir, namedBy, 'not-a-folder');
    throw unusable(dataDir, namedBy, 'not-created', `could not be created (${code ?? String(error)})`);
  }
}
