import { z } from 'zod';
import { call } from './contract';
import { SpendingPolicy } from '../jobs/cost-model';

const binaryPath = z
  .string()
  .trim()
  .max(4096)
  .refine((p) => !p.includes('\0'), 'must not contain a NUL character')
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), 'must be an absolute path')
  .nullable();

/** The app-wide settings the shell owns. Other areas keep their own records. */
export const AppSettings = z.object({
  /** An explicit ffmpeg binary; null means: look it up (environment, ffmpeg-static, PATH). */
  ffmpegPath: binaryPath,
  ffprobePath: binaryPath,
  /** Desktop notifications when long work finishes (Electron only). */
  notifications: z.boolean(),
  /** Voice ids starred in the Voices workspace; kept across connections (ids are the service's). */
  favouriteVoices: z.array(z.string().min(1).max(200)).max(1000).default([]),
  /** Sending without the question under a limit, and a spending limit per day per connection. */
  spending: SpendingPolicy.default({ skipQuestionUnder: null, dailyLimits: {} }),
});
export type AppSettings = z.infer<typeof AppSettings>;

export const AppSettingsPatch = AppSettings.partial().strict();
export type AppSettingsPatch = z.infer<typeof AppSettingsPatch>;

export const settingsCalls = {
  'settings.get': call(z.tuple([]), AppSettings),
  /** Changes some settings; answers with all of them after the change. */
  'settings.update': call(z.tuple([AppSettingsPatch]), AppSettings),
};

export const settingsEvents = {
  'settings.changed': AppSettings,
};
