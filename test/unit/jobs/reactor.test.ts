import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceoverHash, type JobRecord } from '@common/bridge';
import { createProject, setSceneVoice } from '@common/composition';
import { startEmulator, type RunningEmulator } from '../../../electron/emulator';
import { ServiceClient } from '../../../electron/services/client';
import { JobEngine } from '../../../electron/services/jobs/engine';
import { openLedger } from '../../../electron/services/records/open-ledger';
import { JobReactor } from '../../../electron/services/jobs/reactor';
import { ProjectLibrary } from '../../../electron/services/projects/project-library';
import { createConfStoreFactory } from '../../../electron/services/store/conf-store';
import { MemoryLogger } from '../../../electron/services/log/file-logger';
import { CATALOGUE_ROOT } from '../emulator/harness';

let emulator: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-reactor-'));
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    jobSeconds: 0.2,
    catalogueDir: CATALOGUE_ROOT,
    dataDir: join(dir, 'sandbox'),
  });
}, 120_000);
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One run of a host: an engine on the shared ledger, and a reactor that puts voiceovers into projects. */
function host(library: ProjectLibrary, calls: string[]) {
  const client = new ServiceClient({
    baseUrl: emulator.url,
    credentials: { kind: 'api-key', apiKey: emulator.apiKey },
  });
  const engine = new JobEngine({
    storage: openLedger(dir),
    connections: {
      active: async () => ({ id: 'sandbox', name: 'Sandbox', webhookUrl: null }),
      client: async () => client,
    },
    clock: { now: () => Date.now() },
  });
  const reactor = new JobReactor({ engine });
  reactor.on('scene-voiceover', async (job) => {
    calls.push(job.id);
    if (job.purpose.type === 'scene-voiceover' && job.resultUrl)
      await library.applyVoiceover(job.purpose.projectId, job.purpose.sceneId, job.purpose.scriptHash, job.resultUrl);
  });
  return { engine, reactor };
}

const ended = (id: string, phase: JobRecord['phase']) =>
  ({ id, phase, reactedAt: null, purpose: { type: 'plain' } }) as JobRecord;

describe('the job reactor', () => {
  it('puts a voiceover into its closed project once, keeps it once across a restart, and never over a newer script', async () => {
    const createStore = createConfStoreFactory(join(dir, 'data'), { log: new MemoryLogger(), notify: () => {} });
    const library = new ProjectLibrary({ dataDir: join(dir, 'data'), createStore });
    const voice = {
      kind: 'tts' as const,
      text: 'The reactor puts this into scene one.',
      voiceId: 'sandbox_ava',
      rate: '50%',
    };
    const project = setSceneVoice(
      createProject({ id: 'proj', kind: 'avatar-video', output: '16:9-720p', name: 'Reacting' }),
      'scene-1',
      voice,
    );
    const saved = await library.saveAs(project, { name: 'Reacting' });
    const projectId = saved.project.id;
    const file = join(library.libraryDir, `${projectId}.json`);

    const calls: string[] = [];
    const first = host(library, calls);
    first.engine.start();
    first.reactor.start();
    const submitted = await first.engine.submit({
      confirmation: { by: 'script' },
      kind: 'tts',
      body: { input_text: voice.text, voice_id: voice.voiceId, rate: voice.rate },
      purpose: { type: 'scene-voiceover', projectId, sceneId: 'scene-1', scriptHash: voiceoverHash(voice) },
    });
    if (submitted.status !== 'submitted') throw new Error('not submitted');
    const done = await first.engine.waitFor(submitted.job.id);
    expect(done.phase).toBe('completed');
    await first.reactor.idle();
    await first.engine.flush();
    expect(calls).toEqual([submitted.job.id]);
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { scenes: { voice: { audioUrl?: string } }[] };
    expect(onDisk.scenes[0].voice.audioUrl).toBe(done.resultUrl);
    expect(first.engine.record(submitted.job.id).reactedAt).not.toBeNull();
    first.reactor.stop();
    first.engine.stop();

    // A restart: the ledger says the reaction happened, so it does not happen again.
    const second = host(library, calls);
    second.engine.start();
    second.reactor.start();
    await second.reactor.idle();
    expect(calls).toEqual([submitted.job.id]);
    second.engine.stop();

    // A script edited after the job was sent keeps its new words and gets no stale audio.
    const edited = setSceneVoice(project, 'scene-1', { ...voice, text: 'Newer words.' });
    await library.save({ ...edited, id: projectId });
    expect(await library.applyVoiceover(projectId, 'scene-1', voiceoverHash(voice), 'https://cdn/stale.mp3')).toBe(
      false,
    );
    const after = JSON.parse(readFileSync(file, 'utf8')) as {
      scenes: { voice: { text: string; audioUrl?: string } }[];
    };
    expect(after.scenes[0].voice).toMatchObject({ text: 'Newer words.' });
    expect(after.scenes[0].voice.audioUrl).toBeUndefined();
  }, 120_000);

  it('tries a reaction again at the next start when it failed, and acts only on ended jobs', async () => {
    const jobs = [ended('a', 'completed'), ended('b', 'queued'), ended('c', 'stalled'), ended('d', 'failed')];
    const marked: string[] = [];
    const engine = {
      records: () => jobs,
      subscribeRecords: () => () => undefined,
      markReacted: async (id: string) => {
        marked.push(id);
        jobs.find((j) => j.id === id)!.reactedAt = 1;
      },
    };
    let fail = true;
    const seen: string[] = [];
    const reactor = new JobReactor({ engine });
    reactor.on('plain', async (job) => {
      seen.push(job.id);
      if (fail && job.id === 'a') throw new Error('disk full');
    });
    reactor.start();
    await reactor.idle();
    expect(seen.sort()).toEqual(['a', 'd']);
    expect(marked).toEqual(['d']);
    reactor.stop();
    fail = false;
    const again = new JobReactor({ engine });
    again.on('plain', async (job) => void seen.push(job.id));
    again.start();
    await again.idle();
    // Only the one that failed is tried again; the other was done for good.
    expect(marked).toEqual(['d', 'a']);
    expect(seen.sort()).toEqual(['a', 'a', 'd']);
  });

  it('refuses a reaction registered after it started, which the catch-up would have skipped', () => {
    const engine = {
      records: () => [ended('a', 'completed')],
      subscribeRecords: () => () => undefined,
      markReacted: async () => undefined,
    };
    const reactor = new JobReactor({ engine });
    reactor.on('plain', async () => undefined);
    reactor.start();
    expect(() => reactor.on('scene-voiceover', async () => undefined)).toThrow(
      /registered after the reactor started.*before start\(\)/,
    );
  });
});
