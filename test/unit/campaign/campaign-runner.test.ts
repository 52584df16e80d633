import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { writeCampaignManifest } from '../../../electron/services/campaign/campaign-manifest';
import type { JobEngine } from '../../../electron/services/jobs/engine';
import { campaignHost, createCampaign, createdPerStep, prospects, startSandbox } from './campaign-harness';

let em: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-run-'));
beforeAll(async () => {
  em = await startSandbox(dir);
}, 120_000);
afterAll(async () => {
  await em.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the engine holds at least `n` jobs the service made for campaign rows. */
function created(engine: JobEngine, n: number): Promise<void> {
  const enough = () =>
    engine.list().filter((j) => j.purpose.type === 'campaign-row' && j.remoteId !== null).length >= n;
  return new Promise((resolve) => {
    if (enough()) return resolve();
    const stop = engine.subscribe(() => {
      if (!enough()) return;
      stop();
      resolve();
    });
  });
}

const manifestOf = (outDir: string) =>
  Papa.parse<Record<string, string>>(readFileSync(join(outDir, 'manifest.csv'), 'utf8').replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data;

describe('a campaign run against the sandbox', () => {
  it('makes each good row its voiceovers, then its video, saves it under its own name, and lists every row in the manifest', async () => {
    const dataDir = mkdtempSync(join(dir, 'run-'));
    const outDir = join(dataDir, 'out');
    const notes: string[] = [];
    const host = campaignHost(em, dataDir, notes);
    await createCampaign(host, prospects(em, 4, [2]), outDir);
    const record = await host.runner.run('c1');
    expect(record.state).toBe('finished');
    expect(record.rows.map((r) => [r.row + 1, r.state, r.fileName])).toEqual([
      [1, 'done', '1 - Ana.mp4'],
      [2, 'done', '2 - Bo.mp4'],
      [3, 'invalid', '3.mp4'],
      [4, 'done', '4 - Di.mp4'],
    ]);
    for (const file of ['1 - Ana.mp4', '2 - Bo.mp4', '4 - Di.mp4']) expect(existsSync(join(outDir, file))).toBe(true);
    // Each row speaks its own name: its voiceovers were made from its own script.
    const scripts = host.engine
      .list()
      .filter((j) => j.purpose.type === 'campaign-row' && j.kind === 'tts')
      .map((j) => (j.request as { input_text: string }).input_text)
      .sort();
    expect(scripts).toEqual([
      'Hi Ana, this is for Co 1.',
      'Hi Bo, this is for Co 2.',
      'Hi Di, this is for Co 4.',
      'See you soon, Ana.',
      'See you soon, Bo.',
      'See you soon, Di.',
    ]);
    // Its video carries its own voiceovers and its own picture of the text (uploaded, not a local path).
    const video = host.engine
      .list()
      .find((j) => j.kind === 'avatar-video' && j.purpose.type === 'campaign-row' && j.purpose.row === 0);
    const body = video?.request as {
      data: { voice: { voice_url: string }; elements: { id: string; url: string }[] }[];
    };
    const ana = host.engine
      .list()
      .find(
        (j) => j.kind === 'tts' && (j.request as { input_text: string }).input_text === 'Hi Ana, this is for Co 1.',
      );
    expect(body.data[0].voice.voice_url).toBe(ana?.resultUrl);
    expect(body.data[0].elements.find((e) => e.id === 'title')?.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/files\/.*\.png$/,
    );
    expect([...createdPerStep(dataDir).values()]).toEqual(Array(9).fill(1));
    expect(notes).toEqual(['Campaign "prospects.csv" finished: 3 done, 1 refused by the check of 4 rows']);

    await writeCampaignManifest(record, host.engine.list());
    const manifest = manifestOf(outDir);
    expect(manifest.map((line) => [line.sheet_row, line['First name'], line.status, line.file])).toEqual([
      ['2', 'Ana', 'done', '1 - Ana.mp4'],
      ['3', 'Bo', 'done', '2 - Bo.mp4'],
      ['4', '', 'invalid', ''],
      ['5', 'Di', 'done', '4 - Di.mp4'],
    ]);
    expect(manifest[2].reason).toBe('{{First name}} is empty');
    expect(manifest[0].link).toMatch(/^http/);
    expect(Date.parse(manifest[0].expiry)).toBeGreaterThan(Date.now());
    await host.stop();
  }, 120_000);

  it("survives being dropped half way: a new runner from the record and the ledger goes on and creates no row's job twice", async () => {
    const dataDir = mkdtempSync(join(dir, 'crash-'));
    const outDir = join(dataDir, 'out');
    const first = campaignHost(em, dataDir);
    await createCampaign(first, prospects(em, 4), outDir, { concurrency: 2 });
    void first.runner.run('c1');
    await created(first.engine, 3);
    // What a killed host leaves: its engine and runner stop where they are, nothing more is sent.
    await first.stop();
    const sentBefore = createdPerStep(dataDir).size;
    expect(sentBefore).toBeLessThan(12);

    const second = campaignHost(em, dataDir);
    const record = await second.runner.run('c1');
    expect(record.state).toBe('finished');
    expect(record.rows.every((r) => r.state === 'done')).toBe(true);
    const perStep = createdPerStep(dataDir);
    expect(perStep.size).toBe(12);
    expect([...perStep.values()].every((n) => n === 1)).toBe(true);
    await second.stop();
  }, 120_000);
});
