// Writes the layer tables of docs/architecture.md from layers.js, so the doc cannot say other than
// the lint rule. `node .eslint-plugin-local/layer-table.js` (npm run docs:layers) rewrites the doc;
// test/unit/lint/layer-doc.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ANY, LAYERS, SERVICE_FOLDERS } from './layers.js';

export const DOC = join(resolve(import.meta.dirname, '..'), 'docs', 'architecture.md');
const BEGIN = '<!-- layer table: written by npm run docs:layers from .eslint-plugin-local/layers.js -->';
const END = '<!-- end of layer table -->';

const code = (names) => (names.length ? names.map((n) => `\`${n}\``).join(', ') : 'nothing of ours');
const refusal = { node: 'Node built-ins', electron: '`electron`' };

/** The two tables in Markdown: the layers, then the sub-folders of electron/services. */
export function layerTables() {
  const layers = Object.entries(LAYERS).map(([name, spec]) => {
    const folder = spec.folder ? `\`${spec.folder}/\`` : 'top-level files';
    const imports = spec.imports === ANY ? 'any layer' : code(spec.imports);
    const refuses = spec.refuses.length ? spec.refuses.map((r) => refusal[r]).join(', ') : 'nothing';
    return `| \`${name}\` | ${folder} | ${imports} | ${refuses} | ${spec.about} |`;
  });
  const services = Object.entries(SERVICE_FOLDERS).map(([name, spec]) => {
    const face = spec.face ? ` (others use only ${spec.face.map((f) => `\`${f}.ts\``).join(', ')})` : '';
    return `| \`${name}/\`${face} | ${code(spec.imports)} | ${spec.about} |`;
  });
  return [
    '| Layer | Folder | May import (besides itself) | Refuses | What it is |',
    '| --- | --- | --- | --- | --- |',
    ...layers,
    '',
    `Inside \`${LAYERS.services.folder}/\`, each sub-folder may import these siblings:`,
    '',
    '| Sub-folder | May import | What it is |',
    '| --- | --- | --- |',
    ...services,
  ].join('\n');
}

/** `doc` with the text between the markers replaced by the current tables; throws when a marker is missing. */
export function withTables(doc) {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`docs/architecture.md lacks the layer table markers:\n${BEGIN}\n${END}`);
  return `${doc.slice(0, begin + BEGIN.length)}\n${layerTables()}\n${doc.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(DOC, withTables(readFileSync(DOC, 'utf8')));
  console.log('docs/architecture.md: layer tables written from .eslint-plugin-local/layers.js');
}
