// The sandbox of the campaigns bench: stopping its process, and reading from its own records how many
// times it made each row's steps (a row made twice shows there, whatever the studio's ledger says).
import type { Sandbox } from './jobs.bench';
import { readSandboxRecords } from '../../electron/emulator/state/store';

/**
 * The sandbox's own records, by row: how many voiceovers of each scene's script and how many videos it
 * created. A video is the row's whose voiceover result it speaks.
 */
export function createdPerRow(sandbox: Sandbox): Map<string, number> {
  const state = readSandboxRecords(sandbox.dataDir).state as {
    jobs: Record<string, { _id: string; kind: string; request: Record<string, unknown> }>;
  };
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const rowOfSpeech = new Map<string, string>();
  for (const job of Object.values(state.jobs)) {
    if (job.kind !== 'tts') continue;
    const text = String(job.request.input_text ?? '');
    const name = /Name\d+/.exec(text)?.[0] ?? '?';
    rowOfSpeech.set(job._id, name);
    add(`${name}:${text.startsWith('Hi') ? 'scene 1' : 'scene 2'}`);
  }
  for (const job of Object.values(state.jobs)) {
    if (job.kind !== 'avatar_video') continue;
    const speech = [...JSON.stringify(job.request).matchAll(/([\w-]+)\.mp3/g)]
      .map((m) => rowOfSpeech.get(m[1]))
      .find((name) => name !== undefined);
    add(`${speech ?? '?'}:video`);
  }
  // A job not tied to its row would hide a row made twice: the count is only worth printing when all are.
  const untied = [...counts.keys()].filter((key) => key.startsWith('?'));
  if (untied.length > 0) throw new Error(`sandbox jobs not tied to a row: ${untied.join(', ')}`);
  return counts;
}

/** Stops the sandbox's process and waits for it to exit (at once when it has already). */
export async function stopSandbox(sandbox: Sandbox): Promise<void> {
  if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) return;
  const exited = new Promise((r) => sandbox.child.once('exit', r));
  sandbox.child.kill('SIGTERM');
  await exited;
}
