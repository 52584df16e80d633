import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CampaignTemplate } from '@common/campaign/variables';
import type { LinkReport } from '@common/composition';
import { checkCampaignFile, type CampaignCheckDeps } from '../../../electron/services/campaign/campaign-check';
import { loadTemplate } from './template-fixture';

const sheets = join(import.meta.dirname, '../../fixtures/sheets');
const dir = mkdtempSync(join(tmpdir(), 'studio-campaign-check-'));

/** The greeting with the sheets fixtures' columns: Script, Voice and File name. */
function scriptTemplate(): CampaignTemplate {
  const { project } = loadTemplate();
  const [first, second] = project.scenes;
  return {
    fileName: '{{file name}}',
    project: {
      ...project,
      scenes: [
        {
          ...first,
          voice: { kind: 'tts', text: '{{script}}', voiceId: '{{voice}}', rate: '50%' },
          elements: first.elements
            .filter((e) => e.id !== 'logo')
            .map((e) =>
              e.type === 'avatar'
                ? { ...e, avatarId: 'SandboxBen' }
                : e.text
                  ? { ...e, text: { ...e.text, content: 'For {{file name}}' } }
                  : e,
            ),
        },
        {
          ...second,
          voice: { kind: 'tts', text: 'Bye.', voiceId: '{{voice}}', rate: '50%' },
          elements: second.elements.map((e) => ({ ...e, avatarId: 'SandboxBen' })),
        },
      ],
    },
  };
}

/** A connection with two voices and one avatar; links answered from `served`, each request counted. */
function deps(served: Record<string, Partial<LinkReport>> = {}): CampaignCheckDeps & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    catalogue: {
      voices: async () =>
        [
          { voice_id: 'sandbox_ava', name: 'Ava' },
          { voice_id: 'sandbox_hugo', name: 'Hugo' },
        ] as never,
      avatars: async () => [{ avatar_id: 'SandboxBen' }] as never,
    },
    async checkLinks(urls) {
      asked.push([...urls]);
      return urls.map(
        (url) =>
          ({
            url,
            ok: true,
            kind: 'image',
            format: 'png',
            durationMs: null,
            sizeBytes: 100,
            checkedAt: 0,
            ...served[url],
          }) as LinkReport,
      );
    },
  };
}

describe("a campaign's rows from the batch voiceovers' spreadsheet reader", () => {
  for (const file of [
    'excel-utf8-bom.csv',
    'excel-de-windows-1252-semicolon.csv',
    'utf16le-no-bom.tsv',
    'excel-spots.xlsx',
  ]) {
    it(`reads ${file}: accents intact, voices by name, the row without a voice named`, async () => {
      const check = await checkCampaignFile(scriptTemplate(), join(sheets, file), deps());
      expect(check.problems).toEqual([]);
      expect(check.columns).toMatchObject({ script: 'Script', voice: 'Voice', file_name: 'File name' });
      const [spring, cafe, third] = check.rows;
      expect(spring.project.scenes[0].voice).toMatchObject({
        text: 'Frühlingsangebot: 20 € Rabatt auf Größe M',
        voiceId: 'sandbox_ava',
      });
      expect(spring.fileName).toBe('spring-de.mp4');
      expect(spring.problems).toEqual([]);
      expect(cafe.project.scenes[1].voice).toMatchObject({ voiceId: 'sandbox_hugo' });
      expect(cafe.project.scenes[0].elements.find((e) => e.id === 'title')?.text?.content).toBe('For cafe-fr');
      if (third) expect(third.problems).toEqual(['{{voice}} is empty']);
    });
  }

  it('names a variable no column gives, and reads it once it is mapped to a column', async () => {
    const unmapped = await checkCampaignFile(scriptTemplate(), join(sheets, 'sheets-utf8.csv'), deps());
    expect(unmapped.problems).toEqual([
      'the template uses {{script}} and no column is named so (the columns: "text", "voice", "rate", "name"); name a column "script" or map one to it',
      'the template uses {{file name}} and no column is named so (the columns: "text", "voice", "rate", "name"); name a column "file name" or map one to it',
    ]);
    const mapped = await checkCampaignFile(scriptTemplate(), join(sheets, 'sheets-utf8.csv'), deps(), {
      mapping: { script: 'text', 'File name': 'name' },
    });
    expect(mapped.problems).toEqual([]);
    expect(
      mapped.rows.map((r) => [r.fileName, r.project.scenes[0].voice?.kind === 'tts' && r.project.scenes[0].voice.text]),
    ).toEqual([
      ['hello.mp4', 'Hello, world'],
      ['ru.mp4', 'Привет, мир'],
      ['ja.mp4', 'こんにちは世界'],
    ]);
  });

  it('refuses a file that is not a spreadsheet with what it is', async () => {
    await expect(checkCampaignFile(scriptTemplate(), join(sheets, 'song-renamed.csv'), deps())).rejects.toThrow(
      /MP3 sound, not a spreadsheet/,
    );
  });
});

describe('the per-row check before anything is sent', () => {
  const logo = 'https://cdn.example/logos/acme.png';
  const lines = [
    'First name,company,voice,avatar,logo',
    `Ana,Acme,Ava,SandboxBen,${logo}`,
    `,Acme,Ava,SandboxBen,${logo}`,
    `Bo,Acme,Zed,SandboxBen,${logo}`,
    `Cy,Acme,Ava,Nobody,${logo}`,
    `Di,Acme,Ava,SandboxBen,https://cdn.example/gone.png`,
    `Ed,Acme,Ava,SandboxBen,https://cdn.example/song.mp3`,
    `Ana,Beta,Ava,SandboxBen,${logo}`,
    `Fay,"${'word '.repeat(5001).trim()}",Ava,SandboxBen,${logo}`,
    `Gus,Acme,Ava,SandboxBen,logos/local.png`,
  ];

  it('names each bad row with its reasons and passes the good ones; each link is checked once for every row', async () => {
    const file = join(dir, 'prospects.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const d = deps({
      'https://cdn.example/gone.png': { ok: false, reason: 'HTTP 404 Not Found', kind: null },
      'https://cdn.example/song.mp3': { kind: 'audio', format: 'mp3' },
    });
    const check = await checkCampaignFile(loadTemplate('{{First name}}'), file, d);
    expect(check.problems).toEqual([]);
    const reasons = Object.fromEntries(check.rows.map((r) => [r.row + 1, r.problems]));
    expect(reasons[1]).toEqual([
      'its file name "Ana.mp4" is also sheet row 8\'s: make the name template tell them apart',
    ]);
    expect(reasons[2]).toEqual(['{{First name}} is empty']);
    expect(reasons[3]).toEqual([
      'Scene 1 (hello): voice "Zed" is not one of this connection\'s voices',
      'Scene 2 (scene-2): voice "Zed" is not one of this connection\'s voices',
    ]);
    expect(reasons[4]).toEqual([
      'Scene 1 (hello): avatar "Nobody" is not one of this connection\'s avatars',
      'Scene 2 (scene-2): avatar "Nobody" is not one of this connection\'s avatars',
    ]);
    expect(reasons[5]).toEqual([
      'Scene 1 (hello), element logo (logo): the image link is broken (HTTP 404 Not Found).',
    ]);
    expect(reasons[6]).toEqual(['Scene 1 (hello), element logo (logo): the image link is a sound, not a picture.']);
    expect(reasons[7]).toEqual([
      'its file name "Ana.mp4" is also sheet row 2\'s: make the name template tell them apart',
    ]);
    expect(reasons[8]).toEqual([
      expect.stringMatching(/^Scene 1 \(hello\): the script cannot be spoken \(.*5000 words/),
    ]);
    // A path in a link column is a file beside the spreadsheet, uploaded when the row is sent.
    expect(reasons[9]).toEqual([]);
    expect(check.rows[8].project.scenes[0].elements.find((e) => e.id === 'logo')?.url).toBe(
      pathToFileURL(join(dir, 'logos/local.png')).href,
    );
    expect(d.asked).toHaveLength(1);
    expect(d.asked[0]).toEqual([
      logo,
      'https://cdn.example/gone.png',
      'https://cdn.example/song.mp3',
      pathToFileURL(join(dir, 'logos/local.png')).href,
    ]);
  });
});
