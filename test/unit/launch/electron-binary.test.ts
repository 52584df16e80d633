import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain .mjs launcher without type declarations
import { electronBinary } from '../../../electron/launch/electron-binary.mjs';

function fakeRoot(electronIndex: string | null): string {
  const root = mkdtempSync(join(tmpdir(), 'studio-launch-'));
  writeFileSync(join(root, 'package.json'), '{"name":"x"}');
  if (electronIndex !== null) {
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'electron', 'package.json'), '{"name":"electron","main":"index.js"}');
    writeFileSync(join(root, 'node_modules', 'electron', 'index.js'), electronIndex);
  }
  return root;
}

describe('npm start: is the Electron binary installed?', () => {
  it('says no when the package throws because its download was skipped', () => {
    expect(electronBinary(fakeRoot("throw new Error('Electron failed to install correctly');"))).toBeNull();
  });

  it('says no when the package is missing or points at nothing', () => {
    expect(electronBinary(fakeRoot(null))).toBeNull();
    expect(electronBinary(fakeRoot("module.exports = '/nonexistent/electron';"))).toBeNull();
  });

  it('returns the binary path when it exists', () => {
    const root = fakeRoot('');
    const binary = join(root, 'electron-bin');
    writeFileSync(binary, '');
    writeFileSync(join(root, 'node_modules', 'electron', 'index.js'), `module.exports = ${JSON.stringify(binary)};`);
    expect(electronBinary(root)).toBe(binary);
  });

  it('says no on this machine, where the download is skipped', () => {
    expect(electronBinary(join(import.meta.dirname, '..', '..', '..'))).toBeNull();
  });
});
