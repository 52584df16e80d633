import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../host/types';
import type { Redactor } from './redact';

type Level = 'debug' | 'info' | 'warn' | 'error';

export interface FileLoggerOptions {
  /** The current log file; rotated copies sit beside it as `<file>.1`, `<file>.2`, ... */
  file: string;
  redactor: Redactor;
  /** Rotate once the current file would grow past this many bytes. */
  maxBytes?: number;
  /** How many rotated files to keep besides the current one. */
  keep?: number;
  minLevel?: Level;
  now?: () => Date;
  /** Also echo lines here (the terminal of the web host), already redacted. */
  echo?: (line: string) => void;
}

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * One JSON object per line. Writes are synchronous on purpose: logging is rare and small, and a line
 * written just before a crash is the one worth having.
 */
export class FileLogger implements Logger {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly minLevel: Level;
  private readonly now: () => Date;
  private size: number;

  constructor(private readonly options: FileLoggerOptions) {
    this.maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
    this.keep = options.keep ?? 3;
    this.minLevel = options.minLevel ?? 'info';
    this.now = options.now ?? (() => new Date());
    mkdirSync(dirname(options.file), { recursive: true });
    this.size = existsSync(options.file) ? statSync(options.file).size : 0;
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.write('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }

  private write(level: Level, message: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.minLevel]) return;
    const { redactor } = this.options;
    const record = {
      time: this.now().toISOString(),
      level,
      message: redactor.text(message),
      ...(fields ? (redactor.value(fields) as Record<string, unknown>) : {}),
    };
    const line = `${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    try {
      appendFileSync(this.options.file, line, { mode: 0o600 });
      this.size += bytes;
    } catch {
      // A full or read-only disk must not take the app down with it; the line is lost.
    }
    this.options.echo?.(line.trimEnd());
  }

  private rotate(): void {
    const { file } = this.options;
    try {
      rmSync(`${file}.${this.keep}`, { force: true });
      for (let i = this.keep - 1; i >= 1; i -= 1) {
        if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      }
      if (this.keep > 0) renameSync(file, `${file}.1`);
      else rmSync(file, { force: true });
    } catch {
      // If rotation fails, keep appending to the current file rather than losing lines.
    }
    this.size = existsSync(file) ? statSync(file).size : 0;
  }
}

/** Keeps lines in memory; for tests and for hosts that have no log folder. */
export class MemoryLogger implements Logger {
  readonly lines: { level: Level; message: string; fields?: Record<string, unknown> }[] = [];
  debug(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'debug', message, fields });
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'error', message, fields });
  }
}
