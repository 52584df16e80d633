import { describe, expect, it } from 'vitest';
import {
  addTextElement,
  createProject,
  exportBody,
  noteSystemFontDigest,
  parseProject,
  presetStyle,
  setTextStyle,
  useSystemFonts,
  validateProject,
  type Project,
} from '@common/composition';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const sansFace = {
  id: '0123456789abcdef',
  family: 'DejaVu Sans',
  weight: 700 as const,
  italic: false,
  file: 'DejaVuSans-Bold.ttf',
};

/** This machine's catalogue as the host would list it; `sha256` as the host reports on reading the file. */
function computerWith(faces: (typeof sansFace)[], sha256?: string): void {
  useSystemFonts(faces);
  for (const f of faces) if (sha256) noteSystemFontDigest(`system:${f.id}`, sha256);
}

/** A project whose title is drawn in a system font, made on a machine whose file has fingerprint A. */
function madeWithSystemFont(): Project {
  computerWith([sansFace], A);
  let p = createProject({ id: 'p-sys', kind: 'avatar-video', output: '16:9-720p', name: 'System font' });
  p = { ...p, scenes: [{ ...p.scenes[0], voice: { kind: 'url', url: 'https://cdn.example/voice.mp3' } }] };
  p = addTextElement(p, 'scene-1', presetStyle(p, 'title'), { width: 417, height: 140 }, { id: 'title' });
  return setTextStyle(
    p,
    'scene-1',
    'title',
    { ...p.scenes[0].elements[0].text!, fontFamily: 'DejaVu Sans' },
    { width: 430, height: 140 },
  );
}

/** The project as another machine opens it: from its saved file. */
function reopened(p: Project): Project {
  const parsed = parseProject(JSON.parse(JSON.stringify(p)));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.project;
}

describe('a project made with a system font', () => {
  it('records the face: family, weight, file name, SHA-256 and that it is a system font', () => {
    const p = madeWithSystemFont();
    expect(p.fonts).toEqual([
      { family: 'DejaVu Sans', weight: 700, italic: false, file: 'DejaVuSans-Bold.ttf', sha256: A, system: true },
    ]);
    expect(validateProject(p, { purpose: 'submit' }).filter((x) => x.level === 'error')).toEqual([]);
  });

  it('on a machine without the font, names the font and the element and blocks submit, keeping the record', () => {
    const saved = madeWithSystemFont();
    computerWith([]);
    const p = reopened(saved);
    const problem = validateProject(p, { purpose: 'submit' }).find((x) => x.code === 'text-font');
    expect(problem).toMatchObject({
      level: 'error',
      elementId: 'title',
      message: expect.stringMatching(
        /element title.*"DejaVu Sans" \(bold, DejaVuSans-Bold\.ttf\) this project was made with is not on this computer/,
      ),
    });
    expect(exportBody(p).ok).toBe(false);
    // An edit elsewhere in the style keeps the record (the next machine must still be told).
    const edited = setTextStyle(
      p,
      'scene-1',
      'title',
      { ...p.scenes[0].elements[0].text!, colour: '#ff0000' },
      { width: 430, height: 140 },
    );
    expect(edited.fonts).toEqual(saved.fonts);
    // Choosing a studio font clears it.
    const fixed = setTextStyle(
      p,
      'scene-1',
      'title',
      { ...p.scenes[0].elements[0].text!, fontFamily: 'Source Sans 3' },
      { width: 417, height: 140 },
    );
    expect(validateProject(fixed, { purpose: 'submit' }).filter((x) => x.level === 'error')).toEqual([]);
    expect(fixed.fonts?.some((f) => f.system)).toBe(false);
  });

  it('on a machine with a different file under that name, says so instead of substituting', () => {
    const saved = madeWithSystemFont();
    computerWith([sansFace], B);
    const problem = validateProject(reopened(saved), { purpose: 'submit' }).find((x) => x.code === 'text-font');
    expect(problem).toMatchObject({
      level: 'error',
      elementId: 'title',
      message: expect.stringMatching(/different file from the one this project was made with \(its SHA-256 differs\)/),
    });
    // The same file installed: nothing to say.
    computerWith([sansFace], A);
    expect(validateProject(reopened(saved), { purpose: 'submit' }).find((x) => x.code === 'text-font')).toBeUndefined();
  });
});
