import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript lint plugin without type declarations
import { DOC, layerTables, withTables } from '../../../.eslint-plugin-local/layer-table.js';
// @ts-expect-error -- plain JavaScript lint plugin without type declarations
import { LAYERS, SERVICE_FOLDERS } from '../../../.eslint-plugin-local/layers.js';

describe("docs/architecture.md's layer tables", () => {
  it('are the ones the lint rule enforces (npm run docs:layers rewrites them)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc, 'docs/architecture.md differs from .eslint-plugin-local/layers.js: run npm run docs:layers').toBe(
      withTables(doc),
    );
    expect(doc).toContain(layerTables());
  });

  it('show every layer and every services sub-folder with what it may import', () => {
    const tables = layerTables() as string;
    for (const [name, spec] of Object.entries(LAYERS as Record<string, { folder: string }>)) {
      expect(tables).toMatch(
        new RegExp(`^\\| \`${name}\` \\| ${spec.folder ? `\`${spec.folder}/\`` : 'top-level files'} \\|`, 'm'),
      );
    }
    for (const [name, spec] of Object.entries(SERVICE_FOLDERS as Record<string, { imports: string[] }>)) {
      const row = tables.split('\n').find((line) => line.startsWith(`| \`${name}/\``));
      for (const sibling of spec.imports) expect(row, name).toContain(`\`${sibling}\``);
    }
  });
});
