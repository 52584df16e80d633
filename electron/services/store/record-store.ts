import type { z } from 'zod';
import type { Logger, RecordStore, RecordStoreSpec } from '../host/types';
import type { Notice } from '../../common/bridge';

/**
 * The raw JSON file under a record store. conf and electron-store both fit this shape; tests use a
 * memory one. `read` throws when the file is not valid JSON; `moveAside` renames the file out of the way.
 */
export interface RecordFile {
  readonly path: string;
  read(): unknown;
  write(value: Record<string, unknown>): void;
  /** Renames the current file to a sibling name and returns the new path. */
  moveAside(suffix: string): string;
}

export interface RecordStoreDeps {
  log: Logger;
  /** Tells the user something happened to their data (a file moved aside). */
  notify(notice: Notice): void;
  now?: () => Date;
}

/** On disk a record is `{ version, data }`, so migrations know where they start. */
interface Envelope {
  version: number;
  data: unknown;
}

class RecordProblem extends Error {}

function asEnvelope(raw: unknown): Envelope | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new RecordProblem('not a JSON object');
  const obj = raw as Record<string, unknown>;
  if (Object.keys(obj).length === 0) return null;
  if (typeof obj.version !== 'number' || !Number.isInteger(obj.version) || obj.version < 0) {
    throw new RecordProblem('missing or invalid "version"');
  }
  if (!('data' in obj)) throw new RecordProblem('missing "data"');
  return { version: obj.version, data: obj.data };
}

function migrate<T>(spec: RecordStoreSpec<T>, envelope: Envelope): unknown {
  if (envelope.version > spec.version) {
    throw new RecordProblem(
      `written by a newer version (record version ${envelope.version}, this app knows ${spec.version})`,
    );
  }
  let data = envelope.data;
  for (let v = envelope.version; v < spec.version; v += 1) {
    const step = spec.migrations?.[v];
    if (!step) throw new RecordProblem(`no migration from version ${v} to ${v + 1}`);
    data = step(data);
  }
  return data;
}

function describeZodError(error: z.ZodError): string {
  const first = error.issues[0];
  const where = first && first.path.length > 0 ? first.path.join('.') : 'record';
  return `${where}: ${first?.message ?? 'invalid'}`;
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/**
 * Opens a typed, versioned record. A file that cannot be read, parsed, migrated or validated is moved
 * aside (never deleted) with a notice, and the record starts again from its defaults.
 */
export function openRecordStore<T>(spec: RecordStoreSpec<T>, file: RecordFile, deps: RecordStoreDeps): RecordStore<T> {
  const now = deps.now ?? (() => new Date());
  let current: T = spec.defaults;
  let needsWrite = false;

  const setAside = (reason: string): void => {
    const moved = file.moveAside(`corrupt-${timestamp(now())}`);
    deps.log.warn('record file moved aside', { store: spec.name, reason, movedTo: moved });
    deps.notify({
      level: 'warning',
      title: `The ${spec.name} file could not be read and was set aside`,
      detail: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. The old file was kept as ${moved}; defaults are in use.`,
    });
    needsWrite = true;
  };

  let raw: unknown;
  try {
    raw = file.read();
  } catch (error) {
    setAside(`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    raw = {};
  }

  try {
    const envelope = asEnvelope(raw);
    if (envelope === null) {
      needsWrite = true;
    } else {
      const migrated = migrate(spec, envelope);
      const parsed = spec.schema.safeParse(migrated);
      if (!parsed.success)
        throw new RecordProblem(`it does not match the expected shape (${describeZodError(parsed.error)})`);
      current = parsed.data;
      if (envelope.version !== spec.version) {
        deps.log.info('record migrated', { store: spec.name, from: envelope.version, to: spec.version });
        needsWrite = true;
      }
    }
  } catch (error) {
    if (!(error instanceof RecordProblem) && !(error instanceof Error)) throw error;
    setAside(error instanceof RecordProblem ? error.message : `a migration failed (${error.message})`);
    current = spec.defaults;
  }

  const persist = (value: T): void => {
    file.write({ version: spec.version, data: value as unknown });
  };
  if (needsWrite) persist(current);

  const checked = (value: T): T => {
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) throw new Error(`Refused to save ${spec.name}: ${describeZodError(parsed.error)}`);
    return parsed.data;
  };
  const writeLater = (): void => {
    try {
      persist(checked(current));
    } catch (error) {
      // Nobody waits on a later write to hear of it: the log keeps it, and the next change tries again.
      deps.log.error('record not saved', { store: spec.name, error: String(error) });
    }
  };
  const later = spec.writeBehindMs === undefined ? null : writeBehind(spec.writeBehindMs, writeLater);
  const set = (value: T): void => {
    if (later) {
      current = value;
      later.changed();
      return;
    }
    current = checked(value);
    persist(current);
  };

  return {
    path: file.path,
    get: () => current,
    set,
    update(change) {
      set(change(current));
      return current;
    },
  };
}

const unwritten = new Set<() => void>();
let exitHooked = false;

/** Writes every write-behind record's last changes now (a host stopping; the process exiting). */
export function writePendingRecords(): void {
  for (const write of [...unwritten]) write();
}

/** Calls `write` once, `ms` after the first change since the last write, or when pending records are written. */
function writeBehind(ms: number, write: () => void): { changed(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const now = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    unwritten.delete(now);
    write();
  };
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', writePendingRecords);
  }
  return {
    changed() {
      if (timer) return;
      unwritten.add(now);
      timer = setTimeout(now, ms);
      timer.unref?.();
    },
  };
}

/**
 * Wraps a per-file opener so every domain asking for the same record name shares one instance (two
 * instances on one file would overwrite each other). Asking with a different spec is a programming error.
 */
export function sharedStores(open: <T>(spec: RecordStoreSpec<T>) => RecordStore<T>) {
  const opened = new Map<string, { spec: RecordStoreSpec<unknown>; store: RecordStore<unknown> }>();
  return <T>(spec: RecordStoreSpec<T>): RecordStore<T> => {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(spec.name)) throw new Error(`Invalid record store name "${spec.name}"`);
    const existing = opened.get(spec.name);
    if (existing) {
      if (existing.spec !== (spec as RecordStoreSpec<unknown>)) {
        throw new Error(`Record store "${spec.name}" was opened with two different specs; export and share one spec`);
      }
      return existing.store as RecordStore<T>;
    }
    const store = open(spec);
    opened.set(spec.name, { spec: spec as RecordStoreSpec<unknown>, store: store as RecordStore<unknown> });
    return store;
  };
}
