// The campaign's check estimates each row's speech with the draft voice (espeak-ng), speaking only a
// couple of samples per voice and speed however many rows there are, and names the rows whose voice
// overruns a fixed-length scene.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCampaignTable, type CampaignCheckDeps } from '../../../electron/services/campaign/campaign-check';
import { SpeechEstimator, wavDurationMs } from '../../../electron/services/campaign/speech-estimate';
import { DraftVoice } from '../../../electron/services/media/draft-voice';
import { ProcessRunner } from '../../../electron/services/media/process';
import { findSpeechEngine } from '../../../electron/services/media/speech-engine';
import { fitSpeechLine, rowHolds, speechMs, variablesInText } from '@common/campaign/speech-fit';
import type { CampaignTemplate } from '@common/campaign/variables';
import { loadTemplate } from './template-fixture';

const dir = mkdtempSync(join(tmpdir(), 'studio-speech-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const engine = findSpeechEngine();
const voice = new DraftVoice({
  runner: new ProcessRunner(),
  engine: () => (engine === 'none' ? null : engine),
  dir: join(dir, 'speech'),
});
/** Every text the draft voice is asked to speak. */
const spoken: string[] = [];
const counted: Pick<DraftVoice, 'speak' | 'engineName'> = {
  engineName: () => voice.engineName(),
  speak: (text, voiceId, rate, signal) => {
    spoken.push(text);
    return voice.speak(text, voiceId, rate, signal);
  },
};

/** The greeting with its first scene fixed at 3.0 s; its second follows its voice (its script varies by row). */
function template(): CampaignTemplate {
  const { project, fileName } = loadTemplate();
  const scenes = project.scenes.map((s, i) => (i === 0 ? { ...s, durationMs: 3000, followVoice: false } : s));
  return { fileName, project: { ...project, scenes } };
}

const deps = (speech: SpeechEstimator): CampaignCheckDeps => ({
  catalogue: {
    voices: async () => [{ voice_id: 'sandbox_ava', name: 'Ava' }] as never,
    avatars: async () => [{ avatar_id: 'SandboxBen' }] as never,
  },
  checkLinks: async () => [],
  speech,
});

const LONG_COMPANY = 'the International Association of Independent Commercial Real Estate Brokers';
const NAMES = ['Ana', 'Margaret', 'Bo', 'Christopher', 'Lu', 'Maximilian', 'Ivy', 'Jo'];
const lines = (count: number): string[][] => [
  ['First name', 'company', 'voice', 'avatar', 'logo'],
  ...Array.from({ length: count }, (_, i) => [
    NAMES[i % NAMES.length],
    i % 50 === 7 ? LONG_COMPANY : `Co ${i + 1}`,
    'Ava',
    'SandboxBen',
    'https://cdn.example/logo.png',
  ]),
];

describe("the check's speech estimate", () => {
  // Fails when overruns are not held (mutation: rowHolds without its voiceOverruns loop).
  it.skipIf(engine === 'none')(
    'names each row whose voice overruns its fixed scene, with the estimate beside the scene length',
    async () => {
      spoken.length = 0;
      const check = await checkCampaignTable(template(), lines(200), deps(new SpeechEstimator(counted)));
      const held = check.rows.filter((r) => r.held.length > 0);
      expect(held.map((r) => r.row)).toEqual([7, 57, 107, 157]);
      const [reason] = held[0].held;
      expect(reason).toMatch(
        /^Scene 1 \(hello\): the voice runs about (\d+\.\d) s, the scene is 3\.0 s \(lengthen the scene, let it follow its voice, or shorten the text\)$/,
      );
      expect(check.speech).toMatch(/^Speech lengths are estimates: .*draft voice \(espeak-ng/);
      // 200 rows, one voice and speed: its shortest and longest scripts were spoken, not every row's.
      expect(spoken.length).toBeLessThanOrEqual(3);
      // The estimate is near what the draft voice says for that very script.
      const script = `Hi ${NAMES[7]}, this is for ${LONG_COMPANY}.`;
      const real = await wavDurationMs((await voice.speak(script, 'sandbox_ava', 0.5)).path);
      const estimated = Number(/about (\d+\.\d) s/.exec(reason)?.[1]) * 1000;
      expect(Math.abs(estimated - real) / real).toBeLessThan(0.15);
      // The rows that fit are not held, nor is the scene that follows its voice ever estimated against.
      expect(check.rows.filter((r) => r.held.length === 0)).toHaveLength(196);
    },
    60_000,
  );

  it('counts words at the voice speed when no draft voice is installed, and says it is a rough estimate', async () => {
    const check = await checkCampaignTable(template(), lines(10), deps(new SpeechEstimator(null)));
    expect(check.rows.filter((r) => r.held.length > 0).map((r) => r.row)).toEqual([7]);
    expect(check.speech).toBe(
      'Speech lengths are rough estimates from the number of words (no draft voice, espeak-ng, is installed).',
    );
  });

  // Fails when every long value holds its row (mutation: variablesInText keeps whole-field placeholders).
  it('holds a value too long for its sentence, not a whole script given by a column', () => {
    const { project } = loadTemplate();
    const scenes = project.scenes.map((s, i) =>
      i === 1 && s.voice?.kind === 'tts' ? { ...s, voice: { ...s.voice, text: '{{script}}' } } : s,
    );
    const template = { fileName: '{{row}}', project: { ...project, scenes } };
    const inText = variablesInText(template);
    expect([...inText].sort()).toEqual(['company', 'first_name']);
    const filled = { ...project, scenes };
    const long = 'A whole paragraph the row speaks. '.repeat(20);
    expect(rowHolds(filled, { script: long, company: 'Acme' }, inText, () => null)).toEqual([]);
    expect(rowHolds(filled, { script: 'Hi.', company: long }, inText, () => null)).toEqual([
      `{{company}} is ${long.length} characters long, far more than fits in its sentence (at most 200): check the cell`,
    ]);
  });

  it('reads a straight line through the spoken samples', () => {
    const line = fitSpeechLine([
      { chars: 25, ms: 2000 },
      { chars: 125, ms: 7000 },
    ]);
    expect(line).toEqual({ interceptMs: 750, msPerChar: 50 });
    expect(speechMs('x'.repeat(65), line as NonNullable<typeof line>)).toBe(4000);
    expect(fitSpeechLine([{ chars: 25, ms: 2000 }])).toBeNull();
  });
});
