import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** Whether `npm run lint`'s Prettier check passes `code` as the file at `path` (the repository's settings). */
async function formatted(path: string, code: string): Promise<boolean> {
  const filepath = join(root, path);
  const options = await prettier.resolveConfig(filepath);
  return prettier.check(code, { ...options, filepath });
}

describe('npm run lint holds the layout and the size of files', () => {
  it('refuses code Prettier would lay out otherwise, and passes it once formatted', async () => {
    const messy = 'export const pair = {a:1,\n      b: "two"}\n';
    expect(await formatted('electron/services/jobs/zz-virtual.ts', messy)).toBe(false);
    const options = await prettier.resolveConfig(join(root, 'electron/services/jobs/zz-virtual.ts'));
    const tidy = await prettier.format(messy, {
      ...options,
      filepath: join(root, 'electron/services/jobs/zz-virtual.ts'),
    });
    expect(tidy).toBe("export const pair = { a: 1, b: 'two' };\n");
    expect(await formatted('electron/services/jobs/zz-virtual.ts', tidy)).toBe(true);
  });

  it('refuses a product file over 400 lines, and not a test file', async () => {
    const long = Array.from({ length: 401 }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';
    const [product] = await eslint.lintText(long, { filePath: join(root, 'electron/services/jobs/zz-virtual.ts') });
    expect(product.messages.map((m) => m.message)).toContain('File has too many lines (401). Maximum allowed is 400.');
    const [test] = await eslint.lintText(long, { filePath: join(root, 'test/unit/jobs/zz-virtual.test.ts') });
    expect(test.messages.filter((m) => m.ruleId === 'max-lines')).toEqual([]);
  });
});
