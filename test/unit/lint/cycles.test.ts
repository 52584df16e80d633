import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
// The fixture's folder is ignored by `npm run lint` (it holds a circle on purpose); here it is linted.
const eslint = new ESLint({ cwd: root, ignore: false });
const fixture = (name: string) => join(root, 'test', 'fixtures', 'import-cycle', name);

async function circles(file: string, code?: string): Promise<string[]> {
  const [result] =
    code === undefined ? await eslint.lintFiles([file]) : await eslint.lintText(code, { filePath: file });
  return result.messages.filter((m) => m.ruleId === 'studio/no-cycle').map((m) => m.message);
}

describe('the no-cycle rule', () => {
  it('refuses an import that closes a circle, naming every file of the loop', async () => {
    expect(await circles(fixture('first.ts'))).toEqual([
      "'./second' closes an import circle: test/fixtures/import-cycle/first.ts → test/fixtures/import-cycle/second.ts → test/fixtures/import-cycle/third.ts → test/fixtures/import-cycle/first.ts. Move what both sides need into a file of its own that neither imports back.",
    ]);
  });

  it('counts a type-only import as part of a circle', async () => {
    expect(await circles(fixture('second.ts'))).toEqual([expect.stringContaining("'./third' closes an import circle")]);
  });

  it('lets the same files be once the circle is opened', async () => {
    // third.ts no longer importing first.ts: nothing leads back to first.ts.
    expect(await circles(fixture('third.ts'), 'export type Starter = () => string;\n')).toEqual([]);
    expect(await circles(fixture('first.ts'))).toHaveLength(1);
  });

  it('finds no circle in the product code', async () => {
    const results = await new ESLint({ cwd: root }).lintFiles([
      'electron/common/composition/document.ts',
      'electron/cli/cli-host.ts',
      'electron/common/jobs/copy-summary.ts',
    ]);
    expect(
      results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'studio/no-cycle').map((m) => m.message)),
    ).toEqual([]);
  });
});
