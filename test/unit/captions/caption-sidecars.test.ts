import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setCaptionSettings, setSceneCaptions } from '@common/captions/caption-ops';
import { addScene, createProject, setSceneDuration, type Project } from '@common/composition';
import type { DownloadView } from '@common/bridge/downloads';
import type { JobRecord } from '@common/bridge/jobs';
import { CaptionSidecars, sidecarPaths } from '../../../electron/services/downloads/caption-sidecars';
import { until } from '../../wait';

const dir = mkdtempSync(join(tmpdir(), 'sidecars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function captioned(): Project {
  let p = createProject({ id: 'proj', kind: 'avatar-video', output: '16:9-720p' });
  p = addScene(p, { id: 'scene-2' });
  p = setSceneDuration(p, 'scene-1', 3000);
  p = setSceneCaptions(p, 'scene-1', [{ text: 'First words.', startMs: 250, endMs: 1500 }]);
  return setSceneCaptions(p, 'scene-2', [{ text: 'Second scene, --> arrow.', startMs: 100, endMs: 900 }]);
}

function sidecars(
  project: Project | null,
  kind: JobRecord['kind'] = 'avatar-video',
  reads: string[] = [],
): CaptionSidecars {
  const job = { id: 'job-1', kind, projectId: 'proj' } as JobRecord;
  return new CaptionSidecars({
    job: (id) => (id === 'job-1' ? job : null),
    project: async (id) => (reads.push(id), project),
    log: { warn: () => undefined } as never,
  });
}

describe('captions beside downloaded results', () => {
  it('writes <name>.srt and <name>.vtt with every scene on the video clock', async () => {
    const video = join(dir, 'Result one.mp4');
    writeFileSync(video, 'video');
    const paths = await sidecars(captioned()).write('job-1', video);
    expect(paths).toEqual({ srt: join(dir, 'Result one.srt'), vtt: join(dir, 'Result one.vtt') });
    expect(readFileSync(paths!.srt, 'utf8')).toBe(
      '1\n00:00:00,250 --> 00:00:01,500\nFirst words.\n\n2\n00:00:03,100 --> 00:00:03,900\nSecond scene, --> arrow.\n',
    );
    expect(readFileSync(paths!.vtt, 'utf8')).toBe(
      'WEBVTT\n\n00:00:00.250 --> 00:00:01.500\nFirst words.\n\n00:00:03.100 --> 00:00:03.900\nSecond scene, → arrow.\n',
    );
  });

  it('writes nothing when the option is off, for a voiceover, for an unknown job or without captions', async () => {
    const video = join(dir, 'Off.mp4');
    expect(
      await sidecars(setCaptionSettings(captioned(), { besideDownloads: false })).write('job-1', video),
    ).toBeNull();
    expect(await sidecars(captioned(), 'tts').write('job-1', video)).toBeNull();
    expect(await sidecars(captioned()).write('job-2', video)).toBeNull();
    expect(
      await sidecars(createProject({ id: 'proj', kind: 'avatar-video', output: '16:9-720p' })).write('job-1', video),
    ).toBeNull();
    expect(existsSync(sidecarPaths(video).srt)).toBe(false);
  });

  it('acts once on a saved download, whatever the number of changes it is seen in', async () => {
    const video = join(dir, 'Seen.mp4');
    const reads: string[] = [];
    const service = sidecars(captioned(), 'avatar-video', reads);
    const view = { id: 'd1', jobId: 'job-1', state: 'saved', savedPath: video } as DownloadView;
    service.seen({ ...view, state: 'downloading', savedPath: null });
    expect(existsSync(sidecarPaths(video).srt)).toBe(false);
    service.seen(view);
    await until('the .vtt beside the video', () => existsSync(sidecarPaths(video).vtt));
    service.seen(view);
    service.seen({ ...view, bytes: 5 });
    expect(reads).toEqual(['proj']);
  });
});
