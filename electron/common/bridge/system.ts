import { z } from 'zod';
import { call } from './contract';

export const BinaryStatus = z.object({
  name: z.enum(['ffmpeg', 'ffprobe']),
  path: z.string().nullable(),
  source: z.enum(['settings', 'env', 'package', 'path', 'installer']).nullable(),
  version: z.string().nullable(),
  error: z.string().nullable(),
});
export type BinaryStatus = z.infer<typeof BinaryStatus>;

export const SystemInfo = z.object({
  appVersion: z.string(),
  host: z.enum(['electron', 'web', 'cli']),
  /** Where the app keeps its records and log (shown so a user can find them). */
  dataDir: z.string(),
  logFile: z.string().nullable(),
  platform: z.string(),
  /** When this run of the host started: a page that sees it change knows the host restarted under it. */
  startedAt: z.number(),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

export const Notice = z.object({
  level: z.enum(['info', 'success', 'warning', 'error']),
  title: z.string(),
  detail: z.string().optional(),
  /**
   * Also worth a system notification, which the page shows where the user allowed it (the web host; the
   * desktop app's host shows its own). Set only where the user keeps notifications on.
   */
  system: z.boolean().optional(),
});
export type Notice = z.infer<typeof Notice>;

/** What a host is doing to its records before it can serve the studio (services/records/prepare-records.ts). */
export const RecordsStage = z.discriminatedUnion('stage', [
  /** Bringing the database's schema up to date: step `step` of the `steps` it has not had. */
  z.object({ stage: z.literal('upgrading'), step: z.number().int().min(1), steps: z.number().int().min(1) }),
  /** Taking the old job journal in: `rows` changes so far, `fraction` of its bytes read. */
  z.object({ stage: z.literal('journal'), rows: z.number().int().min(0), fraction: z.number().min(0).max(1) }),
  /** Building the jobs' indexes over the rows taken in: index `step` of `steps`. */
  z.object({ stage: z.literal('indexes'), step: z.number().int().min(1), steps: z.number().int().min(1) }),
  /**
   * Taking the old record of storage links (`links`) or the old download queues, the record of saved
   * copies (`copies`), in: `done` entries of `total`; both 0 while the file is still being read.
   */
  z.object({
    stage: z.enum(['links', 'copies']),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
  }),
  /** Taking the old campaigns and batches in: `rows` so far, `fraction` of their files' bytes. */
  z.object({ stage: z.literal('runs'), rows: z.number().int().min(0), fraction: z.number().min(0).max(1) }),
]);
export type RecordsStage = z.infer<typeof RecordsStage>;

/** How far a host's start is: the page shows it until `ready`, instead of the studio. */
export const StartupState = z.object({
  ready: z.boolean(),
  /** What is being done now; null when nothing that takes a while is (or it is done). */
  records: RecordsStage.nullable(),
  /** Since the host started on its records, in milliseconds. */
  elapsedMs: z.number().min(0),
  /** Why the start failed (its records could not be opened); the studio cannot be used from this host. */
  failure: z.string().nullable(),
});
export type StartupState = z.infer<typeof StartupState>;

export const systemCalls = {
  /** How far the host's start is; answered before anything else is, while the host takes its records in. */
  'system.startup': call(z.tuple([]), StartupState),
  /** The host's own facts: cheap, so the shell's heartbeat asks for them every few seconds. */
  'system.info': call(z.tuple([]), SystemInfo),
  /** Looks for ffmpeg and ffprobe (starting each with -version): Settings asks, on opening and "Check again". */
  'system.checkBinaries': call(z.tuple([]), z.array(BinaryStatus)),
  /** Opens an http(s) address in the user's browser; anything else is refused. */
  'system.openExternal': call(z.tuple([z.string().url().max(4096)]), z.void()),
  /** Notices raised before the window existed (a settings file moved aside, ...). */
  'system.pendingNotices': call(z.tuple([]), z.array(Notice)),
};

/** The workspaces of the app shell, in sidebar order. */
export const Workspace = z.enum(['editor', 'voices', 'library', 'tools', 'settings', 'campaigns']);
export type Workspace = z.infer<typeof Workspace>;

export const systemEvents = {
  notice: Notice,
  /** The host asks the shell to show a workspace (the desktop app's View menu). */
  'system.navigate': Workspace,
};
