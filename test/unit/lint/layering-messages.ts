import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/**
 * The layering rule's messages for `code` linted as if it were the file at `filePath` (relative to the
 * repository; the file need not exist, so a test can place code in a folder nobody has made yet).
 */
export async function layering(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === 'studio/layering').map((m) => m.message);
}
