import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/index';
import { EXIT, type CliIo } from '../../../electron/cli/command';
import { readOwnerRecord } from '../../../electron/services/host/owner-record';
import type { JobView } from '../../../electron/common/bridge';
import { reachOwner } from '../../../electron/services/host/owner-client';
import { makeImage, makeTone, makeVideo } from '../../fixtures/composition/make-media';
import { smallTemplate } from '../campaign/campaign-harness';
import { startOwner, type OwnerFixture } from './owner-fixture';
import { until } from '../../wait';

// The caller's own folder: its files are named relative to it, as a script's would be.
const here = mkdtempSync(join(tmpdir(), 'studio-owner-files-'));
const clip = makeVideo(join(here, 'clip.mp4'), {
  colour: 'testsrc2',
  width: 320,
  height: 240,
  seconds: 3,
  withAudio: true,
});
makeTone(join(here, 'voice.wav'), { seconds: 3 });
makeImage(join(here, 'face.png'), { colour: 'orange', width: 256, height: 256 });
mkdirSync(join(here, 'a-folder.mp4'));

let owner: OwnerFixture;
beforeAll(async () => {
  owner = await startOwner();
}, 120_000);
afterAll(async () => {
  await owner?.close();
  rmSync(here, { recursive: true, force: true });
});

const cli = (args: string[], answer?: string) => owner.cli(args, { answer, cwd: here });
const ownerJobs = (): Promise<JobView[]> => owner.call('jobs.list');
const said = (result: { err: string[] }) => result.err.join('\n');

describe('local files named on the command line, run through the studio that owns the data folder', () => {
  it('lip syncs, clones and character-swaps local files: the owner takes each in and uploads it; the jobs are its own', async () => {
    const lipsync = await cli(['lipsync', '--yes', '--video', 'clip.mp4', '--audio', 'voice.wav', '--json']);
    expect(lipsync.code, said(lipsync)).toBe(EXIT.ok);
    const synced = JSON.parse(lipsync.out.join('\n')) as JobView & {
      request: { video_url: string; audio_url: string };
    };
    expect(synced).toMatchObject({ kind: 'lipsync', phase: 'completed' });
    // Sent as links on the owner's storage, never as the caller's paths.
    expect(synced.request.video_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(synced.request.audio_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect((await ownerJobs()).find((j) => j.id === synced.id)?.phase).toBe('completed');

    const clone = await cli(['clone', '--yes', '--sample', 'voice.wav', '--text', 'In the voice of a local file.']);
    expect(clone.code, said(clone)).toBe(EXIT.ok);
    expect(said(clone)).toMatch(/Running through the web host[\s\S]*sample uploaded: http:\/\/127\.0\.0\.1/);
    expect((await ownerJobs()).find((j) => j.kind === 'voice-clone')?.phase).toBe('completed');

    const swap = await cli([
      'character-swap',
      '--yes',
      '--image',
      'face.png',
      '--video',
      pathToFileURL(clip).href,
      '--duration',
      '5',
      '--resolution',
      '480p',
    ]);
    expect(swap.code, said(swap)).toBe(EXIT.ok);
    expect(said(swap)).toMatch(/image: .*256×256[\s\S]*Cost: 5 credits/);
    expect((await ownerJobs()).find((j) => j.kind === 'character-swap')?.phase).toBe('completed');
  }, 120_000);

  it('uploads an avatar from a local file through the owner, asked first', async () => {
    const before = (await ownerJobs()).length;
    const refused = await cli(['avatars', 'upload', 'clip.mp4', '--id', 'LocalClip1', '--name', 'Local clip'], 'n');
    expect(refused.code).toBe(EXIT.refused);
    expect((await ownerJobs()).length).toBe(before);
    const sent = await cli([
      'avatars',
      'upload',
      '--yes',
      'clip.mp4',
      '--id',
      'LocalClip1',
      '--name',
      'Local clip',
      '--json',
    ]);
    expect(sent.code, said(sent)).toBe(EXIT.ok);
    const job = JSON.parse(sent.out.join('\n')) as JobView;
    expect((await ownerJobs()).find((j) => j.id === job.id)?.kind).toBe('avatar-upload');
  }, 120_000);

  it('refuses, before sending, a named path that is not a regular file, one that does not exist, and one that is not media', async () => {
    writeFileSync(join(here, 'notes.mp4'), 'not a video at all');
    const before = (await ownerJobs()).length;
    const folder = await cli(['lipsync', '--yes', '--video', 'a-folder.mp4', '--audio', 'voice.wav', '--json']);
    expect(folder.code).toBe(EXIT.refused);
    expect(JSON.parse(folder.out.join('\n')).error.message).toBe(
      `Not sent: --video a-folder.mp4: ${join(here, 'a-folder.mp4')} is not a regular file (a folder)`,
    );
    const missing = await cli(['lipsync', '--yes', '--video', 'clip.mp4', '--audio', 'gone.wav']);
    expect(missing.code).toBe(EXIT.refused);
    expect(said(missing)).toContain(`Not sent: --audio gone.wav: ${join(here, 'gone.wav')}: no such file`);
    const text = await cli(['character-swap', '--yes', '--image', 'face.png', '--video', 'notes.mp4']);
    expect(text.code).toBe(EXIT.refused);
    expect(said(text)).toContain('Not sent: --video notes.mp4: notes.mp4 is not a picture, video or sound file');
    expect((await ownerJobs()).length).toBe(before);
  }, 120_000);

  it('refuses a pipe without opening it (a probe would wait on it for ever)', async () => {
    const pipe = join(here, 'pipe.wav');
    execFileSync('mkfifo', [pipe]);
    const result = await cli(['clone', '--yes', '--sample', 'pipe.wav', '--text', 'Never read.']);
    expect(result.code).toBe(EXIT.refused);
    expect(said(result)).toContain(`${pipe} is not a regular file (a device, pipe or socket)`);
  });

  it('reads no local file a client did not name: a reference it was not handed is refused by the owner', async () => {
    const secret = join(here, 'secret.wav');
    makeTone(secret, { seconds: 1 });
    const link = await reachOwner(owner.dataDir);
    if (!link) throw new Error('no owner');
    try {
      // A client that skips naming the file and sends its file: URL straight in a call.
      const inputs = { video: pathToFileURL(clip).href, audio: pathToFileURL(secret).href };
      await expect(link.call('tools.lipsyncMeasure', inputs)).rejects.toThrow(/Only http\(s\) links, or files chosen/);
      await expect(
        link.call('uploads.linkLocalMedia', { uploadId: 'sneaky', value: pathToFileURL(secret).href }),
      ).rejects.toThrow(/was not chosen or dropped in this session/);
      // Named, the same file is taken in, and then (only then) usable by its reference.
      const named = await link.nameFile(secret, 'media');
      expect(named.url).toBe(pathToFileURL(secret).href);
      await expect(link.call('media.probe', named.url)).resolves.toMatchObject({ kind: 'audio' });
      // A path not resolved by the client is refused: the owner never guesses a folder.
      await expect(link.nameFile('voice.wav', 'media')).rejects.toMatchObject({ code: 'not-absolute' });
      await expect(link.nameFile(`${here}/../${here.split('/').pop()}/voice.wav`, 'media')).rejects.toMatchObject({
        code: 'not-absolute',
      });
    } finally {
      link.close();
    }
  });

  it('uploads local files through the owner: one link per file, its content hash, nothing twice', async () => {
    const result = await cli(['upload', 'voice.wav', 'face.png', '--json']);
    expect(result.code, said(result)).toBe(EXIT.ok);
    const files = JSON.parse(result.out.join('\n')) as {
      file: string;
      url: string;
      sha256: string;
      storage: string;
      how: string;
    }[];
    expect(files.map((f) => f.file)).toEqual([join(here, 'voice.wav'), join(here, 'face.png')]);
    expect(files[0].sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(here, 'voice.wav')))
        .digest('hex'),
    );
    expect(files[0]).toMatchObject({ storage: 'sandbox' });
    const again = await cli(['upload', 'voice.wav', '--json']);
    expect((JSON.parse(again.out.join('\n')) as { how: string }[])[0].how).toBe('reused');
    // --storage names a storage of the owner's Settings (its active one stays as it is); one it lacks is a mistake.
    const named = await cli(['upload', 'voice.wav', '--storage', 'sandbox', '--json']);
    expect(named.code, said(named)).toBe(EXIT.ok);
    expect((JSON.parse(named.out.join('\n')) as { storage: string }[])[0].storage).toBe('sandbox');
    const elsewhere = await cli(['upload', 'voice.wav', '--storage', 'Archive']);
    expect(elsewhere.code).toBe(EXIT.usage);
    expect(said(elsewhere)).toMatch(/No storage named "Archive"/);
  }, 120_000);

  it("saves results with the owner's download manager, so its Library lists the downloads", async () => {
    const spoken = await cli([
      'tts',
      '--yes',
      '--voice',
      'sandbox_ava',
      '--text',
      'To be saved by the studio.',
      '--json',
    ]);
    const job = JSON.parse(spoken.out.join('\n')) as JobView;
    // The folder and name template the user last chose in the Library, which a command line's own
    // --out and --template must not replace.
    await owner.call('downloads.start', { jobIds: [job.id], folder: join(here, 'chosen'), template: '{id}' });
    const remembered = await owner.call('downloads.preferences');
    expect(remembered).toMatchObject({ folder: join(here, 'chosen'), template: '{id}' });
    const result = await cli(['download', job.id, '--out', 'saved', '--template', '{kind} {text}', '--json']);
    expect(result.code, said(result)).toBe(EXIT.ok);
    expect(await owner.call('downloads.preferences')).toEqual(remembered);
    const [saved] = JSON.parse(result.out.join('\n')) as { jobId: string; state: string; path: string }[];
    expect(saved).toMatchObject({ jobId: job.id, state: 'saved' });
    expect(saved.path.startsWith(join(here, 'saved'))).toBe(true);
    expect(readdirSync(join(here, 'saved'))).toHaveLength(1);
    // The Library's Downloads list it (the owner's archive may be saving its own copy beside it).
    expect(
      (await owner.call('downloads.ofJobs', [job.id]))
        .filter((d) => d.jobId === job.id && d.state === 'saved')
        .map((d) => d.savedPath),
    ).toContain(saved.path);
  }, 120_000);

  it('with --missing, has the owner fetch each deleted copy of a result back where it was', async () => {
    const spoken = await cli(['tts', '--yes', '--voice', 'sandbox_ava', '--text', 'Lost and found again.', '--json']);
    const job = JSON.parse(spoken.out.join('\n')) as JobView;
    expect((await cli(['download', job.id, '--out', 'kept'])).code).toBe(EXIT.ok);
    // The owner's archive saves its own copy in the background once the job completes: wait for it, or
    // it could land after the copies are deleted below and leave the result not missing at all.
    await until("the owner's archive copy of the result to be saved", async () =>
      (await owner.call('downloads.ofJobs', [job.id])).some(
        (d) => d.jobId === job.id && d.origin === 'archive' && d.state === 'saved',
      ),
    );
    // Every copy of it goes: the one saved here and the owner's archive's.
    const copies = (await owner.call('downloads.ofJobs', [job.id])).filter(
      (d) => d.jobId === job.id && d.state === 'saved',
    );
    for (const copy of copies) rmSync(copy.savedPath as string);
    expect(copies.map((c) => c.folder)).toContain(join(here, 'kept'));
    const result = await cli(['download', '--missing', '--kind', 'tts', '--since', '1h', '--json']);
    expect(result.code, said(result)).toBe(EXIT.ok);
    const restored = (JSON.parse(result.out.join('\n')) as { jobId: string; state: string; path: string }[]).filter(
      (r) => r.jobId === job.id,
    );
    // Each deleted copy goes back where it was: the one saved here and the archive's.
    expect(restored.map((r) => r.path).sort()).toEqual(copies.map((c) => c.savedPath).sort());
    expect(restored.map((r) => r.state)).toEqual(copies.map(() => 'saved'));
    for (const { path } of restored) expect(readdirSync(dirname(path))).toContain(basename(path));
  }, 120_000);

  it("runs a tts-batch as the owner's batch: asked first, priced, saved into the folder, and goes on when run again", async () => {
    writeFileSync(
      join(here, 'spots.csv'),
      'text,voice\nFirst spot.,sandbox_ava\nSecond spot.,sandbox_ava\n,sandbox_ava\n',
    );
    const declined = await cli(['tts-batch', 'spots.csv', '--out-dir', 'spots'], 'n');
    expect(declined.code).toBe(EXIT.refused);
    expect(said(declined)).toMatch(/Sheet row 4 is not sent: input_text cannot be empty\n2 × speech[\s\S]*\[y\/N\]/);
    expect(await owner.call('batches.list')).toHaveLength(0);

    const run = await cli(['tts-batch', 'spots.csv', '--out-dir', 'spots', '--yes']);
    expect(run.code, said(run)).toBe(EXIT.ok);
    expect(said(run)).toMatch(/Running through the web host .*Voices workspace/);
    expect(run.out.at(-1)).toBe(
      `2 of 3 voiceovers in ${join(here, 'spots')}; manifest: ${join(here, 'spots', 'manifest.csv')}`,
    );
    const [batch] = await owner.call('batches.list');
    expect(batch).toMatchObject({ label: `spots.csv → ${join(here, 'spots')}`, state: 'finished', total: 3 });
    expect(readdirSync(join(here, 'spots')).filter((f) => f.endsWith('.mp3'))).toHaveLength(2);

    const jobs = (await ownerJobs()).length;
    const again = await cli(['tts-batch', 'spots.csv', '--out-dir', 'spots', '--yes']);
    expect(again.code, said(again)).toBe(EXIT.ok);
    expect(said(again)).toContain('Going on with the batch started');
    expect(await owner.call('batches.list')).toHaveLength(1);
    expect((await ownerJobs()).length).toBe(jobs);
    // A row edited in the file is made again, asked first; the others keep their results.
    writeFileSync(
      join(here, 'spots.csv'),
      'text,voice\nFirst spot.,sandbox_ava\nSecond spot now edited.,sandbox_ava\n,sandbox_ava\n',
    );
    const edited = await cli(['tts-batch', 'spots.csv', '--out-dir', 'spots', '--yes']);
    expect(edited.code, said(edited)).toBe(EXIT.ok);
    expect(said(edited)).toMatch(/Speech on "Sandbox"[\s\S]*1 edited row sent again/);
    expect((await ownerJobs()).length).toBe(jobs + 1);
    expect((await ownerJobs()).some((j) => j.summary.includes('Second spot now edited.'))).toBe(true);
  }, 120_000);
  it("runs a campaign as the owner's campaign, its template's and rows' local files named to it, and goes on when run again", async () => {
    writeFileSync(join(here, 'greeting.json'), JSON.stringify(smallTemplate().project));
    // A per-row logo given as a file beside the spreadsheet: named to the owner like any local file.
    writeFileSync(
      join(here, 'prospects.csv'),
      'First name,company,voice,avatar,logo\nAna,Acme,Ava,SandboxBen,face.png\n',
    );
    const args = ['campaign', 'run', 'greeting.json', 'prospects.csv', '--out', 'campaign', '--yes'];
    const run = await cli([...args, '--json']);
    expect(run.code, said(run)).toBe(EXIT.ok);
    expect(JSON.parse(run.out.join('\n')).counts).toEqual({ done: 1 });
    // The owner wrote every video and the manifest before it said the campaign finished.
    expect(readdirSync(join(here, 'campaign')).sort()).toEqual(['1 - Ana.mp4', 'manifest.csv']);
    const [campaign] = await owner.call('campaigns.list');
    expect(campaign).toMatchObject({ state: 'finished', outDir: join(here, 'campaign'), total: 1 });
    const jobs = (await ownerJobs()).length;
    const again = await cli(args);
    expect(again.code, said(again)).toBe(EXIT.ok);
    expect(said(again)).toMatch(/Running through the web host [\s\S]*Going on with the campaign started/);
    expect(await owner.call('campaigns.list')).toHaveLength(1);
    expect((await ownerJobs()).length).toBe(jobs);
  }, 120_000);
});

describe('local files through a command-line run that owns the data folder', () => {
  it('uploads a file another command named, reads none it did not, and serves every command', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'studio-cli-owner-files-'));
    let answer: (text: string) => void = () => {};
    const question = new Promise<string>((resolve) => (answer = resolve));
    const lines = { out: [] as string[], err: [] as string[] };
    const io = (stdin?: () => Promise<string>): CliIo => ({
      out: (t) => lines.out.push(t),
      err: (t) => lines.err.push(t),
      env: {},
      cwd: here,
      ...(stdin && { stdin }),
    });
    // A run that owns the folder while it waits at its price question.
    const owning = runCli(
      ['tts', '--voice', 'sandbox_ava', '--text', 'The owning run.', '--data-dir', folder],
      io(() => question),
    );
    await until('the command line to own the data folder', () => readOwnerRecord(folder)?.kind === 'command line');
    try {
      expect(await runCli(['upload', 'voice.wav', '--data-dir', folder], io()), lines.err.join('\n')).toBe(EXIT.ok);
      expect(lines.out.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const link = await reachOwner(folder);
      if (!link) throw new Error('no owner');
      try {
        // A client that names nothing and puts file: references straight in a call: neither is opened.
        const secret = pathToFileURL(join(here, 'face.png')).href;
        await expect(link.call('tools.swapQuote', { image: secret, video: pathToFileURL(clip).href })).rejects.toThrow(
          /Only http\(s\) links, or files chosen/,
        );
        await expect(link.call('uploads.linkLocalMedia', { uploadId: 'sneaky', value: secret })).rejects.toThrow(
          /was not chosen or dropped in this session/,
        );
        await expect(link.nameFile(join(here, 'a-folder.mp4'), 'media')).rejects.toMatchObject({ code: 'not-a-file' });
      } finally {
        link.close();
      }
      // Every command runs through it, as through the app: its Library has no finished job to save yet.
      const download = await runCli(['download', '--all', '--out', 'elsewhere', '--data-dir', folder], io());
      expect(download, lines.err.join('\n')).toBe(EXIT.ok);
      expect(lines.err.join('\n')).toMatch(/No jobs match: nothing to save/);
    } finally {
      answer('y');
      expect(await owning, lines.err.join('\n')).toBe(EXIT.ok);
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
