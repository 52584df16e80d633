import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { avatarVideoBodySchema, talkingAvatarBodySchema } from '@common/api';
import {
  columnVariables,
  fillTemplate,
  findVariables,
  isTemplate,
  templateProblems,
  variableKey,
} from '@common/campaign/variables';
import { parseProject, toAvatarVideoBody, toTalkingAvatarBody, type Project } from '@common/composition';
import { golden, loadTemplate } from './template-fixture';

const ana = {
  first_name: 'Ana',
  company: 'Acme & Co',
  voice: 'sandbox_ava',
  avatar: 'SandboxBen',
  logo: 'https://cdn.example/logos/acme.png',
};

describe('the variables of a template', () => {
  it('lists each variable once, in order, with every place it is used', () => {
    const variables = findVariables(loadTemplate());
    expect(variables.map((v) => [v.name, v.key])).toEqual([
      ['First name', 'first_name'],
      ['company', 'company'],
      ['voice', 'voice'],
      ['avatar', 'avatar'],
      ['logo', 'logo'],
      ['row', 'row'],
    ]);
    const first = variables[0];
    expect(first.places.map((p) => [p.field, p.where])).toEqual([
      ['script', 'Scene 1 (hello)'],
      ['text', 'Scene 1 (hello), element title'],
      ['script', 'Scene 2 (scene-2)'],
      ['file-name', 'the output file name'],
    ]);
    expect(variables.find((v) => v.key === 'avatar')?.places.map((p) => p.field)).toEqual(['avatar', 'avatar']);
    expect(variables.find((v) => v.key === 'logo')?.places).toEqual([
      { field: 'link', where: 'Scene 1 (hello), element logo (logo)', sceneIndex: 0, elementId: 'logo' },
    ]);
  });

  it('leaves the built-in {{row}} out of the columns a spreadsheet must give', () => {
    expect(columnVariables(loadTemplate()).map((v) => v.key)).toEqual([
      'first_name',
      'company',
      'voice',
      'avatar',
      'logo',
    ]);
  });

  it('treats case, spaces, dashes and underscores alike in names', () => {
    expect(['First Name', ' first_name ', 'first-name', 'FIRST  NAME'].map(variableKey)).toEqual(
      Array(4).fill('first_name'),
    );
  });

  it('names an empty placeholder and an empty file name', () => {
    const template = loadTemplate('');
    const project: Project = {
      ...template.project,
      scenes: [{ ...template.project.scenes[0], voice: { kind: 'tts', text: 'Hi {{ }}', voiceId: 'v', rate: '50%' } }],
    };
    expect(templateProblems({ project, fileName: '' })).toEqual([
      'Scene 1 (hello): "{{}}" names no variable; write a column\'s name between the braces.',
      'The output file name is empty: give a name template such as "{{row}} - {{name}}".',
    ]);
    expect(templateProblems(loadTemplate())).toEqual([]);
  });

  it('says whether a project is a template at all', () => {
    expect(isTemplate(loadTemplate().project)).toBe(true);
    const plain = parseProject(
      readFileSync(join(import.meta.dirname, '../../fixtures/composition/two-scenes.project.json'), 'utf8'),
    );
    expect(plain.ok && isTemplate(plain.project)).toBe(false);
  });
});

describe('a row filled into the template', () => {
  it('replaces every placeholder and gives the avatar-video body of its own (golden)', () => {
    const filled = fillTemplate(loadTemplate(), ana, { row: '07' });
    expect(filled.missing).toEqual([]);
    expect(filled.fileName).toBe('07 - Ana');
    const scenes = filled.project.scenes;
    expect(scenes[0].voice).toEqual({
      kind: 'tts',
      text: 'Hi Ana, this is for Acme & Co.',
      voiceId: 'sandbox_ava',
      rate: '50%',
    });
    expect(scenes[0].elements.find((e) => e.id === 'title')?.text?.content).toBe('Hello Ana!');
    // The voiceovers are made per row before the video; here they stand as made.
    const voiced: Project = {
      ...filled.project,
      scenes: scenes.map((s, i) => ({
        ...s,
        voice: s.voice?.kind === 'tts' ? { ...s.voice, audioUrl: `https://cdn.example/voice-${i + 1}.mp3` } : s.voice,
      })),
    };
    const body = toAvatarVideoBody(voiced);
    golden('greeting.row-07.avatar-video.body.json', body);
    expect(avatarVideoBodySchema.safeParse(body).success).toBe(true);
  });

  it('turns a value put into a link into a link, and leaves the template itself unchanged', () => {
    const template = loadTemplate();
    const before = JSON.stringify(template);
    const filled = fillTemplate(
      template,
      { ...ana, logo: 'logos/acme.png' },
      { row: '1', link: (value) => `file:///sheets/${value}` },
    );
    expect(filled.project.scenes[0].elements.find((e) => e.id === 'logo')?.url).toBe('file:///sheets/logos/acme.png');
    // An avatar's own link is not a placeholder: it is left alone.
    expect(filled.project.scenes[0].elements.find((e) => e.id === 'presenter')?.url).toBe('');
    expect(JSON.stringify(template)).toBe(before);
  });

  it('names the variables a row has no value for, an empty cell included', () => {
    const filled = fillTemplate(
      loadTemplate(),
      { first_name: 'Bo', company: '  ', voice: 'sandbox_ava' },
      { row: '2' },
    );
    expect(filled.missing).toEqual(['company', 'avatar', 'logo']);
    expect(filled.project.scenes[0].voice).toMatchObject({ text: 'Hi Bo, this is for .' });
  });

  it("fills a talking avatar's input_text and voice_id (golden)", () => {
    const template = loadTemplate();
    const scene = template.project.scenes[0];
    const project: Project = {
      ...template.project,
      kind: 'talking-avatar',
      scenes: [
        {
          ...scene,
          voice: null,
          elements: [
            ...scene.elements.filter((e) => e.type !== 'text'),
            {
              id: 'speech',
              type: 'audio',
              url: '',
              x: 0,
              y: 0,
              width: 0,
              height: 0,
              layer: 0,
              inputText: 'Dear {{first name}}, welcome.',
              voiceId: '{{voice}}',
            },
          ],
        },
      ],
    };
    const filled = fillTemplate({ project, fileName: '{{company}}' }, ana, { row: '3' });
    expect(filled.fileName).toBe('Acme & Co');
    const body = toTalkingAvatarBody(filled.project);
    golden('greeting.talking-avatar.body.json', body);
    expect(talkingAvatarBodySchema.safeParse(body).success).toBe(true);
    expect(body.elements.find((e) => e.type === 'audio')).toEqual({
      type: 'audio',
      input_text: 'Dear Ana, welcome.',
      voice_id: 'sandbox_ava',
    });
  });
});
