import { createHash } from 'node:crypto';
import { copyFile, link, rm, stat } from 'node:fs/promises';
import type { FfmpegCommand } from '../../common/composition/ffmpeg-args';

/**
 * What makes two renders the same: the whole ffmpeg command (every filter, size, timing and setting)
 * and the input files it reads, down to their size and modification time. A project changed in any
 * way that shows, or a media file replaced, gives another signature.
 */
export async function renderSignature(command: FfmpegCommand, outputPath: string): Promise<string> {
  const hash = createHash('sha256');
  for (const arg of command.args) hash.update(arg === outputPath ? '<output>' : arg).update('\0');
  const inputs = command.args.filter((_, i) => command.args[i - 1] === '-i');
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    hash.update(info ? `${info.size}:${info.mtimeMs}` : 'missing').update('\0');
  }
  return hash.digest('hex');
}

/** The last few finished renders by signature, so asking again for an unchanged preview costs nothing. */
export class FinishedRenders {
  private readonly bySignature = new Map<string, string>();

  constructor(private readonly keep = 16) {}

  remember(signature: string, path: string): void {
    this.bySignature.delete(signature);
    this.bySignature.set(signature, path);
    while (this.bySignature.size > this.keep) this.bySignature.delete(this.bySignature.keys().next().value as string);
  }

  /** Puts the earlier render's file at `outputPath`; false when there is none or it was deleted. */
  async reuse(signature: string, outputPath: string): Promise<boolean> {
    const earlier = this.bySignature.get(signature);
    if (!earlier) return false;
    if (earlier !== outputPath) {
      await rm(outputPath, { force: true });
      // A hard link costs nothing and survives the earlier file's removal; a copy where links fail.
      const placed = await link(earlier, outputPath).then(
        () => true,
        () =>
          copyFile(earlier, outputPath).then(
            () => true,
            () => false,
          ),
      );
      if (!placed) {
        this.bySignature.delete(signature);
        return false;
      }
    } else if (!(await stat(earlier).catch(() => null))) {
      this.bySignature.delete(signature);
      return false;
    }
    this.remember(signature, outputPath);
    return true;
  }
}
