import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CampaignStill } from '../../common/bridge/campaigns';
import type { Project } from '../../common/composition/document';
import type { ProcessRunner } from '../media/process';
import { stillKey, type StillCache } from './still-cache';

/**
 * Pictures of a campaign's rows before and after they are made: a row's first frame drawn by the
 * editor's local poster machinery from its filled project, and a contact sheet putting the first frames
 * of several rows side by side in one PNG (one ffmpeg pass, so a marketer sees 12 personalised openings
 * at a glance before paying for any).
 */
export interface CampaignStillsDeps {
  runner: ProcessRunner;
  ffmpeg: () => Promise<string>;
  /** The project's frame at 0 ms written to `path` as a JPEG (the preview's poster, text drawn in). */
  poster(project: Project, path: string): Promise<void>;
  /** A frame of a saved video, as image bytes. */
  frameOf(path: string, width: number): Promise<Buffer>;
  /** A scratch folder; every file made in it is removed once read. */
  dir: string;
  /** Where each row's thumbnail is kept once drawn (under the data folder); none: drawn every time. */
  cache?: StillCache;
}

/** Bumped when the way a thumbnail is drawn changes, so pictures drawn the old way are not shown. */
const DRAWING_VERSION = '1';

/** Width of one cell of a contact sheet, in pixels; its height follows the project's frame. */
export const CONTACT_CELL_WIDTH = 320;
const GAP = 6;

/** Columns for `count` cells: as close to a 4:3 block as whole rows allow, at most 6 across. */
export function contactColumns(count: number): number {
  return Math.max(1, Math.min(6, count, Math.ceil(Math.sqrt(count * 1.4))));
}

/**
 * ffmpeg arguments drawing `stills` (all of one frame size) as a grid of `columns`, each scaled to a
 * cell `cell` pixels and padded so a still of another shape stays whole; empty cells stay dark.
 */
export function contactSheetArgs(
  stills: readonly string[],
  columns: number,
  cell: { width: number; height: number },
  out: string,
): string[] {
  const { width, height } = cell;
  const rows = Math.ceil(stills.length / columns);
  const fit = stills.map(
    (_, i) =>
      `[${i}:v]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=0x15181c,setsar=1[c${i}]`,
  );
  const joined = `${stills.map((_, i) => `[c${i}]`).join('')}concat=n=${stills.length}:v=1:a=0,tile=${columns}x${rows}:padding=${GAP}:margin=${GAP}:color=0x0d0f12[sheet]`;
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-loglevel',
    'error',
    ...stills.flatMap((path) => ['-i', path]),
    '-filter_complex',
    [...fit, joined].join(';'),
    '-map',
    '[sheet]',
    '-frames:v',
    '1',
    out,
  ];
}

/** The height of a cell `width` wide for a project's frame (even, as encoders want). */
export function cellHeight(project: Pick<Project, 'output'>, width: number): number {
  const { width: w, height: h } = project.output;
  return Math.max(2, Math.round((width * h) / Math.max(1, w) / 2) * 2);
}

function dataUrlOf(bytes: Buffer): string {
  return `data:image/${bytes[0] === 0x89 ? 'png' : 'jpeg'};base64,${bytes.toString('base64')}`;
}

export class CampaignStills {
  constructor(private readonly deps: CampaignStillsDeps) {}

  /**
   * A row's first frame, from its filled project: drawn once, then read from the cache for as long as
   * the project (the template with the row's values) is the same.
   */
  async firstFrame(project: Project, row: number): Promise<CampaignStill> {
    const key = stillKey('first', DRAWING_VERSION, JSON.stringify(project));
    const bytes = await this.cached(key, async () => {
      const path = await this.posterOf(project);
      try {
        return await readFile(path);
      } finally {
        await rm(path, { force: true });
      }
    });
    return { dataUrl: dataUrlOf(bytes), width: project.output.width, height: project.output.height, rows: [row] };
  }

  /** A frame of a row's saved video: drawn once per version of the file (its size and time of change). */
  async savedFrame(path: string, row: number, width = CONTACT_CELL_WIDTH): Promise<CampaignStill> {
    const file = await stat(path);
    const key = stillKey('saved', DRAWING_VERSION, path, String(file.size), String(file.mtimeMs), String(width));
    const bytes = await this.cached(key, () => this.deps.frameOf(path, width));
    return { dataUrl: dataUrlOf(bytes), width, height: 0, rows: [row] };
  }

  private async cached(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
    const { cache } = this.deps;
    const kept = await cache?.get(key);
    if (kept) return kept;
    const bytes = await draw();
    await cache?.put(key, bytes);
    return bytes;
  }

  /** The first frames of these rows' projects in one picture, in the order given. */
  async contactSheet(rows: ReadonlyArray<{ row: number; project: Project }>): Promise<CampaignStill> {
    if (rows.length === 0) throw new Error('there is no row to show');
    const stills: string[] = [];
    const out = join(this.deps.dir, `contact-${randomBytes(6).toString('hex')}.png`);
    try {
      // One at a time: the posters share the preview's fetch cache, and the machine is small.
      for (const { project } of rows) stills.push(await this.posterOf(project));
      const columns = contactColumns(rows.length);
      const cell = { width: CONTACT_CELL_WIDTH, height: cellHeight(rows[0].project, CONTACT_CELL_WIDTH) };
      const run = await this.deps.runner.run(await this.deps.ffmpeg(), contactSheetArgs(stills, columns, cell, out));
      if (run.code !== 0)
        throw new Error(
          `ffmpeg could not put the frames together: ${run.stderr.trim().split('\n').pop() ?? 'no reason given'}`,
        );
      const bytes = await readFile(out);
      const lines = Math.ceil(rows.length / columns);
      return {
        dataUrl: `data:image/png;base64,${bytes.toString('base64')}`,
        width: columns * cell.width + (columns + 1) * GAP,
        height: lines * cell.height + (lines + 1) * GAP,
        rows: rows.map((r) => r.row),
      };
    } finally {
      await Promise.all([...stills, out].map((path) => rm(path, { force: true })));
    }
  }

  private async posterOf(project: Project): Promise<string> {
    await mkdir(this.deps.dir, { recursive: true });
    const path = join(this.deps.dir, `still-${randomBytes(6).toString('hex')}.jpg`);
    await this.deps.poster(project, path);
    return path;
  }
}
