import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  pickFreeName,
  renderTemplate,
  safeRelativeName,
  sanitizeSegment,
} from '../../../electron/common/file-names';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('file-name templates', () => {
  it('fills fields and takes the first field with a value from a fallback list', () => {
    expect(
      renderTemplate('{project} - {scene|kind} - {row}', { project: 'Launch', kind: 'Avatar video', row: 3 }),
    ).toBe('Launch - Avatar video - 3');
    expect(renderTemplate('{voice|text}', { voice: null, text: 'Hello' })).toBe('Hello');
  });

  it('{project} without a project says so; {project|kind} still falls back to the kind', () => {
    expect(renderTemplate('{project}/{text}', { project: null, text: 'Hi' })).toBe('No project/Hi');
    expect(renderTemplate('{project|kind}/{text}', { project: null, kind: 'Speech', text: 'Hi' })).toBe('Speech/Hi');
    expect(renderTemplate('{kind|project}', { kind: null, project: null })).toBe('No project');
  });

  it('names what is wrong with a template', () => {
    expect(checkTemplate('{project} {nope}')).toMatch(/uses \{nope\}; the fields are \{project\}/);
    expect(checkTemplate('{project')).toMatch(/unmatched "\{"/);
    expect(checkTemplate('  ')).toMatch(/empty/);
    expect(checkTemplate('{date}/{project|id}')).toBeNull();
  });

  it('a field cannot add folders; only the template\'s own "/" does', () => {
    const rendered = renderTemplate('{date}/{text}', { date: '2026-11-22', text: '../../etc/passwd' });
    expect(safeRelativeName(rendered, 'mp4')).toBe('2026-11-22/etc-passwd.mp4');
  });
});

describe('safe names', () => {
  it('replaces characters Windows forbids and control characters, and tidies empty fields', () => {
    expect(sanitizeSegment('a<b>c:d"e|f?g*h\u0001i')).toBe('a_b_c_d_e_f_g_h_i');
    expect(sanitizeSegment('Launch -  - 2026')).toBe('Launch - 2026');
  });

  it('guards Windows device names and trailing dots', () => {
    expect(sanitizeSegment('CON')).toBe('_CON');
    expect(sanitizeSegment('lpt1.mp4')).toBe('_lpt1.mp4');
    expect(sanitizeSegment('clip. . ')).toBe('clip');
    expect(sanitizeSegment('..')).toBe('untitled');
  });

  it('caps length in bytes without splitting characters, keeping the extension', () => {
    const name = safeRelativeName('日本語'.repeat(200), 'mp4');
    expect(bytes(name)).toBeLessThanOrEqual(200);
    expect(name.endsWith('.mp4')).toBe(true);
    expect(name).not.toContain('\uFFFD');
  });

  it('cannot leave the folder', () => {
    expect(safeRelativeName('../../x', 'mp4')).toBe('x.mp4');
    expect(safeRelativeName('/etc/passwd', 'mp4')).toBe('etc/passwd.mp4');
    expect(safeRelativeName('C:\\Windows\\x', 'mp4')).toBe('C/Windows/x.mp4');
    expect(safeRelativeName('a/./b/../c', 'mp4')).toBe('a/b/c.mp4');
  });

  it('numbers a taken name and asks about each candidate', async () => {
    const taken = new Set(['out/clip.mp4', 'out/clip (2).mp4']);
    const asked: string[] = [];
    const free = await pickFreeName('out/clip.mp4', (c) => {
      asked.push(c);
      return taken.has(c);
    });
    expect(free).toBe('out/clip (3).mp4');
    expect(asked).toEqual(['out/clip.mp4', 'out/clip (2).mp4', 'out/clip (3).mp4']);
  });
});
