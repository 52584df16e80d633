import { join } from 'node:path';
import type { CliIo } from '../../../electron/cli/command';

/** A command line's output collected, run in `dir` with `<dir>/data` as the data folder. */
export function collectingIo(dir: string): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t), err: (t) => err.push(t), env: { STUDIO_DATA_DIR: join(dir, 'data') }, cwd: dir }, out, err };
}
