import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarRecord } from '../../../electron/common/api';
import type { JobView } from '../../../electron/common/bridge/jobs';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { resolveMediaBinary } from '../../../electron/services/system/binaries';
import { openLedger } from '../../../electron/services/records/open-ledger';

let emulator: RunningEmulator;
let dataDir: string;
let dir: string;

function io(env: Record<string, string> = { STUDIO_API_KEY: '' }) {
  const lines = { out: [] as string[], err: [] as string[] };
  const value: CliIo = {
    out: (t) => lines.out.push(t),
    err: (t) => lines.err.push(t),
    env: { ...env, STUDIO_API_KEY: emulator.apiKey },
    cwd: dir,
  };
  return { io: value, ...lines };
}
const cli = (args: string[], session = io()) =>
  runCli([...args, '--base-url', emulator.url, '--data-dir', dataDir], session.io).then((code) => ({
    code,
    ...session,
  }));
const firstLine = (lines: string[]) => lines.join('\n').split('\n')[0];
const jobFiles = () => openLedger(dataDir).loadAll().length;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobSeconds: 0.3 });
  dir = mkdtempSync(join(tmpdir(), 'studio-avatars-cli-'));
  dataDir = join(dir, 'data');
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function officialClip(): Promise<AvatarRecord & { url: string; avatar_id: string }> {
  const listed = await cli(['avatars', 'list', '--from', '2', '--json']);
  return (JSON.parse(listed.out.join('\n')) as (AvatarRecord & { url: string; avatar_id: string })[])[0];
}

/** The line that says why nothing was sent. */
const refusalOf = (lines: string[]): string | undefined =>
  lines
    .join('\n')
    .split('\n')
    .find((line) => line.startsWith('Not sent'));

describe('studio avatars', () => {
  it('lists every page of official or uploaded, talking or streaming avatars, as JSON or one line each', async () => {
    const official = await cli(['avatars', 'list', '--from', '2', '--json']);
    expect(official.code, official.err.join('\n')).toBe(0);
    const list = JSON.parse(official.out.join('\n')) as AvatarRecord[];
    expect(list.length).toBeGreaterThan(1);
    expect(list.every((a) => a.from === 2)).toBe(true);
    const streaming = await cli(['avatars', 'list', '--type', '2']);
    expect(streaming.code).toBe(0);
    for (const line of streaming.out) expect(line.split('\t')[3]).toBe('Streaming');
    expect(streaming.err.join('\n')).toMatch(/^\d+ avatars on http:\/\/127\.0\.0\.1:\d+/);
    const wrong = await cli(['avatars', 'list', '--from', '4']);
    expect(wrong.code).toBe(2);
    expect(wrong.err.join('\n')).toContain("option '--from <FROM>' argument '4' is invalid. Allowed choices are 2, 3.");
  });

  it('uploads a link and with --wait follows it to ready; show then reads it by avatar_id', async () => {
    const clip = await officialClip();
    const sent = await cli([
      'avatars',
      'upload',
      '--yes',
      clip.url,
      '--id',
      'FromCli1',
      '--name',
      'From the CLI',
      '--type',
      '2',
      '--wait',
      '--json',
    ]);
    expect(sent.code, sent.err.join('\n')).toBe(0);
    const job = JSON.parse(sent.out.join('\n')) as JobView;
    expect(job).toMatchObject({
      kind: 'avatar-upload',
      phase: 'completed',
      remoteStatus: 3,
      request: { avatar_id: 'FromCli1', name: 'From the CLI', type: 2, url_from: 1 },
    });

    const shown = await cli(['avatars', 'show', 'FromCli1']);
    expect(shown.code, shown.err.join('\n')).toBe(0);
    const text = shown.out.join('\n');
    expect(text).toMatch(/^State\s+Ready \(status 3\)$/m);
    expect(text).toMatch(/^From\s+Uploaded$/m);
    expect(text).toMatch(/^Type\s+Streaming$/m);
    const byRecord = await cli(['avatars', 'show', job.remoteId as string, '--json']);
    expect(JSON.parse(byRecord.out.join('\n'))).toMatchObject({ avatar_id: 'FromCli1', status: 3 });
  });

  it('refuses what the interface forbids before anything is sent, naming the flag', async () => {
    const clip = await officialClip();
    const before = jobFiles();
    const dashed = await cli(['avatars', 'upload', '--yes', clip.url, '--id', 'my-avatar', '--name', 'Dashed']);
    expect(dashed.code).toBe(2);
    expect(firstLine(dashed.err)).toBe('Not sent: --id: avatar_id may contain letters and digits only');
    const nameless = await cli(['avatars', 'upload', '--yes', clip.url, '--id', 'Nameless1']);
    expect(nameless.code).toBe(2);
    expect(firstLine(nameless.err)).toBe("required option '--name <NAME>' not specified");
    const taken = await cli(['avatars', 'upload', '--yes', clip.url, '--id', clip.avatar_id, '--name', 'Copy']);
    expect(taken.code).toBe(2);
    // The price line comes first; the refusal follows it.
    expect(refusalOf(taken.err)).toContain(
      `Not sent: The avatar_id "${clip.avatar_id}" is already used on this connection`,
    );
    const missing = await cli(['avatars', 'upload', '--yes', 'no-such-file.mp4', '--id', 'Missing1', '--name', 'M']);
    expect(missing.code).toBe(2);
    expect(firstLine(missing.err)).toBe('no-such-file.mp4 is neither an http(s) link nor a file on this computer');
    // A phone's HEIC photo is looked at before it goes up (as the studio takes in a file its user chose),
    // and refused with what to do instead: a check on the media, so exit 3 (refused).
    copyFileSync(join(import.meta.dirname, '../../media-corpus/committed/photo.heic'), join(dir, 'portrait.heic'));
    const heic = await cli(['avatars', 'upload', '--yes', 'portrait.heic', '--id', 'Heic1', '--name', 'H']);
    expect(heic.code).toBe(EXIT.refused);
    expect(firstLine(heic.err)).toMatch(
      /^Not sent: FILE portrait\.heic: portrait\.heic: A HEIC picture cannot be used .*Save it as JPEG or PNG/,
    );
    expect(jobFiles()).toBe(before);
  });

  it("exits 1 with the service's reason when an upload fails, and names an avatar that does not exist", async () => {
    const voices = await cli(['voices', 'list', '--from', '3', '--json']);
    const [voice] = JSON.parse(voices.out.join('\n')) as { preview: string }[];
    const failed = await cli([
      'avatars',
      'upload',
      '--yes',
      voice.preview,
      '--id',
      'OnlySound1',
      '--name',
      'Sound',
      '--wait',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.err.join('\n')).toContain(
      'The job did not complete: The service could not finish this job: url holds no picture',
    );
    const unknown = await cli(['avatars', 'show', 'NoSuchAvatar9']);
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toContain('No avatar with the id "NoSuchAvatar9" on this connection');
  });

  it('uploads a local file to the storage first (the built-in sandbox) and sends its link', async () => {
    const picture = join(dir, 'face.png');
    execFileSync((await resolveMediaBinary('ffmpeg')).path, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=orange:s=320x240',
      '-frames:v',
      '1',
      picture,
    ]);
    const session = io();
    // No --base-url: the job and the storage are both the data folder's own sandbox.
    const code = await runCli(
      [
        'avatars',
        'upload',
        '--yes',
        'face.png',
        '--id',
        'LocalFace1',
        '--name',
        'Local face',
        '--wait',
        '--json',
        '--data-dir',
        join(dir, 'own'),
      ],
      session.io,
    );
    expect(code, session.err.join('\n')).toBe(0);
    const job = JSON.parse(session.out.join('\n')) as JobView;
    expect(job.phase).toBe('completed');
    expect((job.request as { url: string }).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/up-[0-9a-f]+-face\.png$/);
  }, 120_000);
});
