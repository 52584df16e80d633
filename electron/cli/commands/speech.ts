import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { normaliseRate } from '../../common/bridge/batches';
import { JOB_PHASE_LABELS, type JobSubmission, type UnconfirmedSubmission } from '../../common/bridge/jobs';
import { OwnerCallError } from '../../services/host/owner-client';
import { knownVoicesOf, unknownVoiceProblem } from '../../services/voices/batch-input';
import { sayWhere, withStudio } from '../cli-host';
import { waitForJob } from '../job-wait';
import { localFileOf, mediaNamer, type StudioLink } from '../studio-link';
import { EXIT, UsageError, flag, type CliCommand, type CliIo, type ParsedArgs } from '../command';
import { SCRIPT_OPTIONS } from '../common-options';
import { confirmPaidCli } from './paid-confirm';
import { saveResult } from './save-result';

/** "50%", "50" → "50%"; the service takes the speaking rate as 0%..100%. */
export function parseRate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const rate = normaliseRate(value);
  if (rate === null) throw new UsageError(`--rate must be 0% to 100% (like 50%), not "${value}"`);
  return rate;
}

async function scriptOf(args: ParsedArgs, io: CliIo): Promise<string> {
  const text = flag(args, '--text');
  const file = flag(args, '--text-file');
  if ((text === undefined) === (file === undefined))
    throw new UsageError('Give the script with --text TEXT or --text-file FILE (one of them)');
  const script =
    text ??
    (await readFile(resolve(io.cwd, file as string), 'utf8').catch((error: Error) => {
      throw new UsageError(`Cannot read --text-file ${file}: ${error.message}`);
    }));
  if (script.trim() === '') throw new UsageError('The script is empty');
  return script;
}

/**
 * A local file named to the studio (checked and taken in as its page's chosen files are), then linked by
 * its uploads to its active storage, as its clone tool sends a recording.
 */
async function uploadLocal(studio: StudioLink, path: string, name: string): Promise<string> {
  const reference = await mediaNamer(studio, dirname(path))(path, name);
  const linked = await studio.call('uploads.linkLocalMedia', { uploadId: `cli-${randomUUID()}`, value: reference });
  return linked.value as string;
}

/**
 * Sends one speech job (TTS or clone) through the studio's job engine (this run's own, or the folder
 * owner's), follows it to its end, and with --out saves the audio here. The request is checked against
 * the interface's rules before anything is sent. `prepare` turns the request into the one sent (a local
 * sample uploaded first).
 */
async function runSpeechJob(
  args: ParsedArgs,
  io: CliIo,
  given: UnconfirmedSubmission,
  prepare?: (studio: StudioLink) => Promise<UnconfirmedSubmission>,
): Promise<number> {
  const json = args.flags['--json'] === true;
  const outFlag = flag(args, '--out');
  const out = outFlag === undefined ? undefined : resolve(io.cwd, outFlag);
  return withStudio(args, io, 'writes', async (studio) => {
    sayWhere(studio, args, io);
    const submission = prepare ? await prepare(studio) : given;
    if (submission.kind === 'tts') {
      const catalogue = { voices: (query = {}) => studio.call('catalogue.voices', query) };
      const unknown = unknownVoiceProblem(submission.body.voice_id, await knownVoicesOf(catalogue));
      if (unknown) throw new UsageError(`Not sent: ${unknown}; \`studio voices list\` shows them`);
    }
    const confirmation = await confirmPaidCli(args, io, studio, {
      action: submission.kind,
      body: submission.body as Record<string, unknown>,
    });
    let result;
    try {
      result = await studio.call('jobs.submit', {
        ...submission,
        confirmation,
        confirmDuplicate: args.flags['--again'] === true,
      } as JobSubmission);
    } catch (error) {
      if (error instanceof OwnerCallError && error.code === 'invalid')
        throw new UsageError(`Not sent: ${error.message}`);
      throw error;
    }
    if (result.status === 'duplicate') {
      io.err(`${result.message.replace(/ Send it anyway\?$/, '')} Add --again to send it anyway.`);
      return EXIT.refused;
    }
    const id = result.job.id;
    if (!json) io.err(`Sent as job ${id.slice(0, 8)} to ${result.job.connectionName}; waiting…`);
    let shown = result.job.phase;
    const job = await waitForJob(studio, id, {
      onChange: (changed) => {
        if (changed.phase === shown || json) return;
        shown = changed.phase;
        io.err(`  ${JOB_PHASE_LABELS[changed.phase]}`);
      },
    });
    if (job.phase !== 'completed') {
      io.err(`The job did not complete: ${job.error?.explanation ?? JOB_PHASE_LABELS[job.phase]}`);
      if (json) io.out(JSON.stringify(job, null, 2));
      return EXIT.failed;
    }
    if (out) {
      const saved = await saveResult(studio, job, out, io);
      if (!json) io.err(`Saved ${saved}`);
    }
    io.out(json ? JSON.stringify({ ...job, savedTo: out ?? null }, null, 2) : (job.resultUrl ?? ''));
    return EXIT.ok;
  });
}

/** `studio tts --voice ID (--text TEXT | --text-file FILE) [--rate 50%] [--out FILE.mp3] [--json] [--again]`. */
export const ttsCommand: CliCommand = {
  name: 'tts',
  makes: ['tts'],
  summary: 'text to speech: waits for the audio, prints its link, saves it with --out',
  options: [
    { name: '--voice', value: 'ID', help: 'a voice id from `studio voices list`', required: true },
    ...SCRIPT_OPTIONS,
  ],
  async run(args, io) {
    const voice = flag(args, '--voice');
    if (!voice) throw new UsageError('Give the voice with --voice ID (`studio voices list` shows them)');
    const rate = parseRate(flag(args, '--rate'));
    const body = { input_text: await scriptOf(args, io), voice_id: voice, ...(rate ? { rate } : {}) };
    return runSpeechJob(args, io, { kind: 'tts', body });
  },
};

/** `studio clone --sample URL --text TEXT [--rate R] [--out FILE.mp3] [--json] [--again]`. */
export const cloneCommand: CliCommand = {
  name: 'clone',
  makes: ['voice-clone'],
  summary:
    'speaks a script in the voice of a sample recording (a link, or a local file uploaded to your storage first); saves it with --out',
  options: [
    {
      name: '--sample',
      value: 'URL|FILE',
      help: 'a recording of the voice to speak in: a link, or a local file (uploaded to the active storage, as the studio does)',
      required: true,
    },
    ...SCRIPT_OPTIONS,
  ],
  async run(args, io) {
    const sample = flag(args, '--sample');
    if (!sample) throw new UsageError('Give the voice sample with --sample URL|FILE (a link or a local recording)');
    const body = {
      input_text: await scriptOf(args, io),
      voice_url: sample,
      rate: parseRate(flag(args, '--rate')) ?? '50%',
    };
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(sample) && !sample.startsWith('file:'))
      return runSpeechJob(args, io, { kind: 'voice-clone', body });
    // A local recording goes to the active storage first, as the studio's clone tool sends it.
    const path = localFileOf(sample, io.cwd) as string;
    if (!existsSync(path)) throw new UsageError(`--sample ${sample} is neither a link nor a file on this computer`);
    return runSpeechJob(args, io, { kind: 'voice-clone', body }, async (studio) => {
      const url = await uploadLocal(studio, path, '--sample');
      if (args.flags['--json'] !== true) io.err(`sample uploaded: ${url}`);
      return { kind: 'voice-clone', body: { ...body, voice_url: url } };
    });
  },
};
