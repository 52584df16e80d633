// @isolate: it sets the process's catalogue of this computer's fonts, a module-level slot in text-style.ts.
import { describe, expect, it } from 'vitest';
import {
  addTextElement,
  createProject,
  noteSystemFontDigest,
  parseProject,
  presetStyle,
  setTextStyle,
  useSystemFonts,
  validateProject,
} from '@common/composition';
import { elementMarks } from '@/composables/editor-problems';

describe("the marks on the editor's canvas", () => {
  it('mark a text whose font this computer lacks, naming the font, since the canvas cannot draw it', () => {
    // Made on a computer with the font, opened on one without it.
    useSystemFonts([
      { id: '0123456789abcdef', family: 'Imaginary Sans', weight: 700, italic: false, file: 'ImaginarySans-Bold.ttf' },
    ]);
    noteSystemFontDigest('system:0123456789abcdef', 'a'.repeat(64));
    let made = createProject({ id: 'p-font', kind: 'avatar-video', output: '16:9-720p', name: 'Made elsewhere' });
    made = addTextElement(made, 'scene-1', presetStyle(made, 'title'), { width: 417, height: 140 }, { id: 'title' });
    made = setTextStyle(
      made,
      'scene-1',
      'title',
      { ...made.scenes[0].elements[0].text!, fontFamily: 'Imaginary Sans' },
      { width: 430, height: 140 },
    );
    useSystemFonts([]);
    const opened = parseProject(JSON.parse(JSON.stringify(made)));
    if (!opened.ok) throw new Error(opened.error);

    const marks = elementMarks(validateProject(opened.project, { purpose: 'submit' }), 'scene-1');
    expect(marks.get('title')).toEqual({
      level: 'error',
      text: expect.stringContaining(
        '"Imaginary Sans" (bold, ImaginarySans-Bold.ttf) this project was made with is not on this computer',
      ),
    });
    // Only the scene on the canvas is marked.
    expect(elementMarks(validateProject(opened.project, { purpose: 'submit' }), 'scene-2').size).toBe(0);
  });
});
