import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { MediaInfo } from '../../../electron/common/composition/media-info';
import { takeVideoFrames, type VideoFramesDeps } from '../../../electron/services/faces/video-frames';

const dir = mkdtempSync(join(tmpdir(), 'studio-video-frames-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const info = (over: Partial<MediaInfo>): MediaInfo => ({
  kind: 'video',
  durationMs: 4000,
  width: 640,
  height: 360,
  fps: 25,
  videoCodec: 'h264',
  audioCodec: null,
  hasVideo: true,
  hasAudio: false,
  sizeBytes: 1,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  format: 'mp4',
  rotation: 0,
  ...over,
});

function deps(media: MediaInfo): VideoFramesDeps & { frame: ReturnType<typeof vi.fn> } {
  return {
    probe: async () => media,
    frame: vi.fn(async (_reference: string, atMs: number) => ({
      dataUrl: `data:image/jpeg;base64,${Buffer.from(`jpeg at ${atMs}`).toString('base64')}`,
    })),
    dir,
    grant: (path) => pathToFileURL(path).href,
  };
}

describe('frames taken from a local video for analyze frames', () => {
  it("keeps each still as a granted local picture with its time, taken at the video's own width", async () => {
    const d = deps(info({}));
    const frames = await takeVideoFrames(d, { video: 'file:///v.mp4', times: [0, 1.5] });
    expect(frames.map((f) => f.time)).toEqual([0, 1.5]);
    expect(d.frame.mock.calls.map((c) => [c[1], c[2]])).toEqual([
      [0, 640],
      [1500, 640],
    ]);
    expect(readFileSync(fileURLToPath(frames[1].reference), 'utf8')).toBe('jpeg at 1500');
  });

  it('refuses times past the end of the video, naming them, before taking any frame', async () => {
    const d = deps(info({ durationMs: 2000 }));
    await expect(takeVideoFrames(d, { video: 'file:///v.mp4', times: [1, 2, 5] })).rejects.toThrow(
      'The video lasts 2.00 s: there is no frame at 2 s, 5 s.',
    );
    expect(d.frame).not.toHaveBeenCalled();
  });

  it('refuses a file without a picture track', async () => {
    await expect(
      takeVideoFrames(deps(info({ kind: 'audio', width: null })), { video: 'file:///a.mp3', times: [0] }),
    ).rejects.toThrow(/video only/);
  });
});
