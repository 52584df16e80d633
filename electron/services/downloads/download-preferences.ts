import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_NAME_TEMPLATE } from '../../common/file-names';
import type { RecordStoreSpec } from '../host/types';

export const DownloadPreferences = z.object({
  /** The folder "Download…" last used; null until the first download. */
  folder: z.string().nullable(),
  template: z.string(),
  /** How many files download at once. */
  concurrency: z.number().int().min(1).max(10),
  /** Bytes per second for all downloads together; null: as fast as the network allows. */
  speedLimit: z.number().int().min(1).nullable().default(null),
  /** Lost copies of the Library and the archive are fetched back by themselves while their links live. */
  restoreLost: z.boolean().default(true),
});
export type DownloadPreferences = z.infer<typeof DownloadPreferences>;

export const downloadPreferencesSpec: RecordStoreSpec<DownloadPreferences> = {
  name: 'downloads',
  schema: DownloadPreferences,
  defaults: { folder: null, template: DEFAULT_NAME_TEMPLATE, concurrency: 3, speedLimit: null, restoreLost: true },
  version: 1,
};

/** Where "Download…" suggests saving before the user chose a folder. */
export function suggestedFolder(): string {
  return join(homedir(), 'Downloads', 'Avatar Studio');
}
