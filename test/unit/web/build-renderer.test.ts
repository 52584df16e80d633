import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererIsStale } from '../../../electron/web/build-renderer';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'studio-build-'));
  for (const dir of ['renderer/src', 'electron/common/bridge', 'electron/web'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'renderer/src/App.vue'), '<template />');
  writeFileSync(join(root, 'electron/common/bridge/index.ts'), '');
  writeFileSync(join(root, 'package.json'), '{}');
  return root;
}

const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe('rendererIsStale', () => {
  it('is stale without a build, fresh after one, and stale again when a source changes', () => {
    const root = project();
    expect(rendererIsStale(root)).toBe(true);
    mkdirSync(join(root, 'out/renderer'), { recursive: true });
    const index = join(root, 'out/renderer/index.html');
    writeFileSync(index, '');
    for (const file of [
      'renderer/src/App.vue',
      'renderer/src',
      'renderer',
      'electron/common/bridge/index.ts',
      'electron/common/bridge',
      'electron/common',
      'package.json',
    ])
      at(join(root, file), 1000);
    at(index, 2000);
    expect(rendererIsStale(root)).toBe(false);
    at(join(root, 'electron/common/bridge/index.ts'), 3000);
    expect(rendererIsStale(root)).toBe(true);
  });
});
