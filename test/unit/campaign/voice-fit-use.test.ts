// A row's voiceovers are measured before its video: a voice whose file is read again on this machine (a
// scene with music mixes it, one cut at a timed element cuts it) is asked for as such, so the measure keeps its copy; any other is not,
// and the measure may read it in memory and keep nothing.
import { describe, expect, it } from 'vitest';
import { newCampaignRecord } from '../../../electron/services/campaign/campaign-setup';
import { fitVoices, type VoiceUse } from '../../../electron/services/campaign/row-steps';
import type { CampaignTemplate } from '@common/campaign/variables';
import { smallTemplate } from './campaign-harness';

const music = {
  url: 'https://example.com/music.mp3',
  name: 'music.mp3',
  levelDb: -10,
  duckDb: 0,
  fadeInMs: 0,
  fadeOutMs: 0,
  loop: true,
  startMs: 0,
};

function recordWith(template: CampaignTemplate) {
  const record = newCampaignRecord({
    id: 'c1',
    label: 'Greeting',
    template,
    check: {
      rows: [
        {
          row: 1,
          line: 2,
          values: { 'First name': 'Ada' },
          project: template.project,
          fileName: '1 - Ada',
          problems: [],
        },
      ],
      voiceIds: {},
    },
    sheetFolder: null,
    outDir: '/tmp/out',
    concurrency: 1,
  });
  const scenes = template.project.scenes;
  const voiceovers = Object.fromEntries(scenes.map((s, i) => [s.id, `https://example.com/voice-${i}.mp3`]));
  return { record, row: { ...record.rows[0], voiceovers }, scenes };
}

async function uses(template: CampaignTemplate): Promise<Map<string, VoiceUse | undefined>> {
  const { record, row } = recordWith(template);
  const asked = new Map<string, VoiceUse | undefined>();
  await fitVoices(record, row, async (url, use) => {
    asked.set(url, use);
    return 1000;
  });
  return asked;
}

describe('a row measuring its voiceovers', () => {
  it('asks for every voice as used once when no scene mixes or cuts it', async () => {
    const asked = await uses(smallTemplate());
    expect(asked.size).toBe(2);
    for (const use of asked.values()) expect(use?.again).toBe(false);
  });

  it('asks for the voice of a scene with music as used again, and only that one', async () => {
    const template = smallTemplate();
    const [first, second] = template.project.scenes;
    const withMusic = { ...template, project: { ...template.project, scenes: [first, { ...second, music }] } };
    const asked = await uses(withMusic);
    expect(asked.get('https://example.com/voice-0.mp3')?.again).toBe(false);
    expect(asked.get('https://example.com/voice-1.mp3')?.again).toBe(true);
  });

  it('asks for the voice of a scene cut by a timed element as used again', async () => {
    const template = smallTemplate();
    const [first, second] = template.project.scenes;
    const timed = second.elements.find((e) => e.type !== 'audio');
    expect(timed).toBeDefined();
    const elements = second.elements.map((e) => (e === timed ? { ...e, startMs: 400 } : e));
    const cut = { ...template, project: { ...template.project, scenes: [first, { ...second, elements }] } };
    const asked = await uses(cut);
    expect(asked.get('https://example.com/voice-0.mp3')?.again).toBe(false);
    expect(asked.get('https://example.com/voice-1.mp3')?.again).toBe(true);
  });
});
