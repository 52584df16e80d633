// Every row's video is whole, against the sandbox: a row whose voice cannot fit its fixed scene is held
// before it is paid for (at the check, or once its real voiceover is known), and a scene that follows its
// voice makes every video at least as long as its row's voiceovers (ffprobe of the files as saved).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../electron/emulator';
import { checkCampaignTable } from '../../../electron/services/campaign/campaign-check';
import { newCampaignRecord, reviseCampaign } from '../../../electron/services/campaign/campaign-setup';
import { followHeld } from '../../../electron/services/campaign/campaign-hold';
import { createCampaignsDomain } from '../../../electron/services/campaign/campaigns-domain';
import type { CampaignTemplate } from '@common/campaign/variables';
import type { CampaignRecord } from '@common/campaign/record';
import { campaignHost, createdPerStep, prospects, smallTemplate } from './campaign-harness';
import { sandboxPerFile } from '../emulator/harness';
import { readSandboxRecords } from '../../../electron/emulator/state/store';

const { dir, sandbox } = sandboxPerFile('studio-campaign-fit-', { jobSeconds: 0.1 });
let em: RunningEmulator;
beforeAll(() => {
  em = sandbox();
});

/** The greeting with each scene's length fixed (scene 1, scene 2), whatever its voice. */
function fixedTemplate(sceneMs: [number, number]): CampaignTemplate {
  const template = smallTemplate();
  return {
    ...template,
    project: {
      ...template.project,
      scenes: template.project.scenes.map((s, i) => ({ ...s, durationMs: sceneMs[i], followVoice: false })),
    },
  };
}

const seconds = (path: string): number =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], {
      encoding: 'utf8',
    }).trim(),
  );

/** A voiceover as a user has it: its link fetched to a file. */
async function saved(url: string, path: string): Promise<string> {
  writeFileSync(path, Buffer.from(await (await fetch(url)).arrayBuffer()));
  return path;
}

const goodLinks = async (urls: readonly string[]) =>
  urls.map((url) => ({
    url,
    ok: true,
    kind: 'image' as const,
    format: 'png' as const,
    durationMs: null,
    sizeBytes: 1,
    checkedAt: 0,
  }));

async function check(host: ReturnType<typeof campaignHost>, lines: string[][], template: CampaignTemplate) {
  const checked = await checkCampaignTable(template, lines, { catalogue: host.catalogue, checkLinks: goodLinks });
  if (checked.problems.length > 0) throw new Error(checked.problems.join('\n'));
  return checked;
}

function record(id: string, template: CampaignTemplate, checked: Awaited<ReturnType<typeof check>>, outDir: string) {
  return newCampaignRecord({
    id,
    label: 'prospects.csv',
    template,
    check: checked,
    sheetFolder: null,
    outDir,
    concurrency: 2,
  });
}

/** The sandbox's own records of jobs (its state file), as the service would bill them. */
function sandboxRequests(): string[] {
  const state = readSandboxRecords(join(dir, 'sandbox')).state as {
    jobs: Record<string, { request: unknown }>;
  };
  return Object.values(state.jobs).map((job) => JSON.stringify(job.request));
}

describe('a campaign whose rows must fit their scenes', () => {
  // Fails when the check's hold is not kept (mutation: newCampaignRecord makes held rows 'pending').
  it('holds a row with an absurdly long value at the check: nothing of it is sent, the run waits with it listed', async () => {
    const dataDir = mkdtempSync(join(dir, 'long-'));
    const host = campaignHost(em, dataDir);
    const lines = prospects(em, 3);
    const company = 'Acme Holdings International '.repeat(113).trim();
    lines[2][1] = company;
    const template = fixedTemplate([4000, 3000]);
    const checked = await check(host, lines, template);
    expect(checked.rows.map((r) => r.held.length > 0)).toEqual([false, true, false]);
    expect(checked.rows[1].held[0]).toBe(
      `{{company}} is ${company.length.toLocaleString('en-US')} characters long, far more than fits in its sentence (at most 200): check the cell`,
    );
    expect(checked.rows[1].held[1]).toMatch(
      /^Scene 1 \(hello\): the voice runs about \d+\.\d s, the scene is 4\.0 s \(lengthen the scene, let it follow its voice, or shorten the text\)$/,
    );

    await host.runner.create(record('long', template, checked, join(dataDir, 'out')));
    const after = await host.runner.run('long');
    // Not finished as if the row were done or failed: the campaign waits for its user.
    expect(after.state).toBe('paused');
    expect(after.rows.map((r) => r.state)).toEqual(['done', 'held', 'done']);
    expect(after.rows[1].problems).toEqual(checked.rows[1].held);
    // 0 jobs for it, in the studio's ledger and in the sandbox's own records.
    expect([...createdPerStep(dataDir).keys()].filter((key) => key.startsWith('1:'))).toEqual([]);
    await host.stop();
    await new Promise((r) => setImmediate(r));
    expect(sandboxRequests().filter((request) => request.includes('Acme Holdings'))).toEqual([]);
  }, 180_000);

  // Fails when the scenes keep the template's length (mutation: rowProject without fitFollowingScenes).
  it("makes each video at least as long as its row's voiceovers when its scenes follow their voice", async () => {
    const dataDir = mkdtempSync(join(dir, 'follow-'));
    const outDir = join(dataDir, 'out');
    const host = campaignHost(em, dataDir);
    // The template's 1.0 s scenes hold scripts that vary by row, which therefore follow their voices.
    const template = smallTemplate();
    const checked = await check(host, prospects(em, 3), template);
    await host.runner.create(record('follow', template, checked, outDir));
    const done = await host.runner.run('follow');
    expect(done.state).toBe('finished');
    for (const row of done.rows) {
      expect(row.state).toBe('done');
      const voices = await Promise.all(
        Object.values(row.voiceovers).map(async (url, i) =>
          seconds(await saved(url, join(dataDir, `voice-${row.row}-${i}.mp3`))),
        ),
      );
      expect(voices).toHaveLength(2);
      const spoken = voices.reduce((a, b) => a + b, 0);
      expect(spoken).toBeGreaterThan(2);
      expect(seconds(join(outDir, row.fileName))).toBeGreaterThanOrEqual(spoken);
    }
    await host.stop();
  }, 180_000);

  // Fails when the real voiceover's length is not checked before the video (mutation: drop the held branch).
  it('holds a row whose real voiceover overruns its fixed scene before its video is paid for, and makes it once fitted without buying the voiceover again', async () => {
    const dataDir = mkdtempSync(join(dir, 'late-'));
    const outDir = join(dataDir, 'out');
    const host = campaignHost(em, dataDir);
    const template = fixedTemplate([1000, 1000]);
    const checked = await check(host, prospects(em, 1), template);
    // As if the estimate had said it fits: only the real voiceover shows it does not.
    const missed = { ...checked, rows: checked.rows.map((r) => ({ ...r, held: [] })) };
    await host.runner.create(record('late', template, missed, outDir));
    const held = await host.runner.run('late');
    expect(held.state).toBe('paused');
    expect(held.rows[0].state).toBe('held');
    expect(held.rows[0].problems[0]).toMatch(
      /^Scene 1 \(hello\): the voice runs \d+\.\d s, the scene is 1\.0 s: held before its video was paid for/,
    );
    expect([...createdPerStep(dataDir).keys()].sort()).toEqual(['0:voiceover:scene-1:0', '0:voiceover:scene-2:0']);

    // Fitted: the scenes now follow their voices; revising the campaign releases the row.
    const following: CampaignTemplate = {
      ...template,
      project: { ...template.project, scenes: template.project.scenes.map((s) => ({ ...s, followVoice: true })) },
    };
    const fresh = record('late', following, await check(host, prospects(em, 1), following), outDir);
    await host.runner.replace(reviseCampaign((await host.runner.get('late')) as CampaignRecord, fresh));
    const made = await host.runner.run('late');
    expect(made.state).toBe('finished');
    expect(made.rows[0].state).toBe('done');
    const perStep = createdPerStep(dataDir);
    expect([...perStep.keys()].sort()).toEqual(['0:video::0', '0:voiceover:scene-1:0', '0:voiceover:scene-2:0']);
    expect([...perStep.values()]).toEqual([1, 1, 1]);
    const lengths = Object.values(made.rows[0].voiceLengths ?? {}).reduce((a, b) => a + b, 0);
    expect(seconds(join(outDir, made.rows[0].fileName)) * 1000).toBeGreaterThanOrEqual(lengths);
    await host.stop();
  }, 180_000);

  // Fails when a held row is not released by following its voice (mutation: followHeld keeps every row held).
  it('lets every scene follow its voice to make the rows held for their voice; a row held for a value stays held', async () => {
    const dataDir = mkdtempSync(join(dir, 'fit-'));
    const outDir = join(dataDir, 'out');
    const host = campaignHost(em, dataDir);
    const lines = prospects(em, 2);
    lines[2][1] = 'Acme Holdings International '.repeat(20).trim();
    const template = fixedTemplate([1000, 1000]);
    const checked = await check(host, lines, template);
    await host.runner.create(record('fit', template, checked, outDir));
    const waiting = await host.runner.run('fit');
    expect([waiting.state, ...waiting.rows.map((r) => r.state)]).toEqual(['paused', 'held', 'held']);
    expect(createdPerStep(dataDir).size).toBe(0);

    const { record: fitted, released } = followHeld(waiting);
    expect(released).toEqual([0]);
    expect(fitted.rows[1].problems).toEqual([expect.stringMatching(/^\{\{company\}\} is 559 characters long/)]);
    await host.runner.replace(fitted);
    const made = await host.runner.run('fit');
    expect([made.state, ...made.rows.map((r) => r.state)]).toEqual(['paused', 'done', 'held']);
    const spoken = Object.values(made.rows[0].voiceLengths ?? {}).reduce((a, b) => a + b, 0);
    expect(spoken).toBeGreaterThan(2000);
    expect(seconds(join(outDir, made.rows[0].fileName)) * 1000).toBeGreaterThanOrEqual(spoken);
    expect([...createdPerStep(dataDir).keys()].filter((key) => key.startsWith('1:'))).toEqual([]);
    await host.stop();
  }, 180_000);

  // Fails when fitting held rows sends without the user's answer to its price (mutation: drop requireCampaignConfirmed).
  it('on the page: a campaign goes on with the rows that fit, and its held row is made after the price of fitting it is answered', async () => {
    const dataDir = mkdtempSync(join(dir, 'page-'));
    const host = campaignHost(em, dataDir);
    const lines = prospects(em, 2);
    lines[2][1] = 'the International Association of Independent Brokers';
    const sheet = join(dataDir, 'prospects.csv');
    writeFileSync(sheet, lines.map((line) => line.join(',')).join('\n'));
    const { handlers: h } = createCampaignsDomain(
      { jobs: host.engine, catalogue: host.catalogue, queries: host.queries },
      {
        runner: host.runner,
        openProject: async () => fixedTemplate([2500, 2000]).project,
        pathOf: (ref) => (ref === 'granted:prospects' ? sheet : null),
        checkLinks: goodLinks,
        stills: {} as never,
      },
    );
    const input = {
      projectId: 'p1',
      file: 'granted:prospects',
      label: 'prospects.csv',
      fileName: '{{row}} - {{First name}}',
      outDir: join(dataDir, 'out'),
      concurrency: 2,
    };
    const checked = await h['campaigns.check'](input);
    expect(checked.rows.map((r) => r.held.length > 0)).toEqual([false, true]);
    expect(checked.speech).toMatch(/^Speech lengths are rough estimates/);
    const started = await h['campaigns.create'](input, { by: 'user', credits: null });
    expect(started.counts).toEqual({ pending: 1, held: 1 });
    const waiting = await host.runner.run(started.id);
    expect([waiting.state, ...waiting.rows.map((r) => r.state)]).toEqual(['paused', 'done', 'held']);

    const quote = await h['campaigns.quoteHeld'](started.id);
    expect(quote.items.map((i) => [i.action, i.count])).toEqual([
      ['tts', 2],
      ['avatar-video', 1],
    ]);
    await expect(h['campaigns.fitHeld'](started.id, { by: 'user', credits: 3 })).rejects.toMatchObject({
      code: 'confirmation-required',
    });
    expect([...createdPerStep(dataDir).keys()].filter((key) => key.startsWith('1:'))).toEqual([]);
    expect((await h['campaigns.get'](started.id)).rows[1].state).toBe('held');

    await h['campaigns.fitHeld'](started.id, { by: 'user', credits: null });
    const made = await host.runner.run(started.id);
    expect([made.state, ...made.rows.map((r) => r.state)]).toEqual(['finished', 'done', 'done']);
    const spoken = Object.values(made.rows[1].voiceLengths ?? {}).reduce((a, b) => a + b, 0);
    expect(seconds(join(dataDir, 'out', made.rows[1].fileName)) * 1000).toBeGreaterThanOrEqual(spoken);
    await host.stop();
  }, 180_000);
});
